// expect: E0330
kernel void k(global int4 *o, global uint4 *u) { o[0] = shuffle2(o[1], u[0], (uint4)(0, 1, 2, 3)); }
