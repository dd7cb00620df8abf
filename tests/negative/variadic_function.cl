// expect: E0405
int sum(int n, ...);
kernel void k(global int *o) { }
