// expect: E0110
#define TWO(a, b) ((a) + (b))
kernel void k(global int *a) { a[0] = TWO(1); }
