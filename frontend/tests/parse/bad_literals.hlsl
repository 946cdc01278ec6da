int a = 98765432109876543210;
float b = 1.5q;
uint c = 0x;
