// expect: E0307
int add(int a, int b) { return a + b; }
kernel void k(global int *o) { o[0] = add(1); }
