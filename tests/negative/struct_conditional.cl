// expect: E0508
struct S { int a; };
kernel void k(global int *o) { struct S s = { 1 }, t = { 2 }; o[1] = (o[0] ? s : t).a; }
