// expect: E0508
struct S { int a; int b; };
kernel void k(struct S s, global int *o) { o[0] = s.a + s.b; }
