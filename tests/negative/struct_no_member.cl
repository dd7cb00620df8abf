// expect: E0319
struct S { int a; };
kernel void k(global int *o) { struct S s = { 1 }; o[0] = s.b; }
