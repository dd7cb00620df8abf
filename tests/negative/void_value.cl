// expect: E0303
void f(void) { }
kernel void k(global int *o) { o[0] = f(); }
