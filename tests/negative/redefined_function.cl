// expect: E0302
int f(int x) { return x; }
int f(int x) { return x + 1; }
kernel void k(global int *o) { o[0] = f(1); }
