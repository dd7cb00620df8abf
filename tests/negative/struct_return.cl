// expect: E0508
struct S { int a; };
struct S make(int x) { struct S s = { x }; return s; }
kernel void k(global int *o) { struct S s = make(3); o[0] = s.a; }
