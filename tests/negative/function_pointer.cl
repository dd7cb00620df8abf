// expect: E0402
void (*fp)(int);
kernel void k(global int *o) { }
