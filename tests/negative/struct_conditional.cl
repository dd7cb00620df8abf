// expect: E0508
struct S { int a; };
kernel void k(global int *o) { struct S s = { 1 }, t = { 2 }; struct S u = o[0] ? s : t; o[1] = u.a; }
