// expect: E0508
struct S { int a; };
struct S make(int x) { struct S s = { x }; return s; }
kernel void k(global int *o) { o[0] = make(3).a; }
