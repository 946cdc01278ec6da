// RUN: %dxc -T ps_6_0 -P %s
#define PASTE(a, b) a##b
#define STR(x) #x
#define EMPTY
#define PLUS +
int PASTE(my, Var) = 1;
string s = STR(hello   "world" \n);
int i = 1 PLUS+ 2;
EMPTY int j;
#pragma pack_matrix(row_major)




#line 100 "renamed.hlsl"
int k = __LINE__;
#if defined(COUNT) || __LINE__ > 50
int far;
#else
int near;
#endif
