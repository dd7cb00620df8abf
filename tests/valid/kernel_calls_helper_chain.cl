// valid: kernel calls helper chain
int a(int x) { return x + 1; }
int b(int x) { return a(x) * 2; }
int c(int x) { return b(x) - a(x); }
kernel void k(global int *o) { o[0] = c(5); }
