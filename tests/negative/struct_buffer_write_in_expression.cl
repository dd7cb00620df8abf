// expect: E0508
struct S { int a; int b; };
kernel void k(global struct S *p, global int *o) { o[0] = (p[1].a = 5) + 1; }
