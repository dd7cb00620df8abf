// expect: E0303
kernel void k(global int4 *o, global uint4 *u) { o[0] = u[0]; }
