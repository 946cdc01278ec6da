#line 1 "pp.conditional.elif.hlsl"




int level_two;




int not_missing;


