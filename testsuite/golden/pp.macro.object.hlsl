// RUN: -P -D SCALE=2 -D FLAG
#define WIDTH 64
#define AREA (WIDTH * WIDTH)
uint area() { return AREA * SCALE; }
#ifdef FLAG
int flag = 1;
#endif
