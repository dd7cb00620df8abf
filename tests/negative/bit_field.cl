// expect: E0404 E0508
struct S { int x : 3; };
kernel void k(global int *o) { }
