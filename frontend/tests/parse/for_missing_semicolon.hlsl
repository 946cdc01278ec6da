void f() {
  for (int i = 0; i < 4 i++) {}
}
