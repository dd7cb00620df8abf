// expect: E0408
kernel void k(int *p) { }
