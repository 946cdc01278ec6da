// RUN: -P
#define SQUARE(x) ((x) * (x))
#define CAT(a, b) a##b
#define STR(s) #s
float f(float v) { return SQUARE(v + 1); }
int CAT(my, Var) = 3;
static const string name = STR(hello world);
