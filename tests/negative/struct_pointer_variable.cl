// expect: E0508
struct S { int a; };
kernel void k(global int *o) { struct S s; struct S *p = &s; p->a = 1; o[0] = s.a; }
