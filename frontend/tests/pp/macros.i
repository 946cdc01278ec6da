#line 1 "tests/pp/macros.hlsl"





int myVar = 1;
string s = "hello \"world\" \n";
int i = 1 + + 2;
      int j;
#pragma pack_matrix(row_major)
#line 100 "renamed.hlsl"
int k = 100;

int far;




