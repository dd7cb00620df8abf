// expect: E0316
void f(void) { return 1; }
kernel void k(global int *a) { f(); }
