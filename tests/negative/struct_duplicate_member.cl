// expect: E0302
struct S { int a; float a; };
kernel void k(global int *o) { o[0] = 1; }
