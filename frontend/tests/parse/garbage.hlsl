@@ $$ 123abc foo bar;
