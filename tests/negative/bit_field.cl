// expect: E0404
struct S { int x : 3; };
kernel void k(global int *o) { }
