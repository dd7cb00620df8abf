// expect: E0307
int f(int a, int b) { return a + b; }
kernel void k(global int *a) { a[0] = f(1); }
