// expect: E0508
union U { int a; short b; };
kernel void k(global int *o) { union U u; u.a = o[1]; o[0] = u.b; }
