void a() { int x = ; }
void b() { x = (1 + ; }
void c() { return 1 2; }
struct S { float f g; };
int ok = 1;
