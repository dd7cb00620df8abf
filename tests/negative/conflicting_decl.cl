// expect: E0323
int f(int x);
long f(int x) { return x; }
kernel void k(global long *o) { o[0] = f(1); }
