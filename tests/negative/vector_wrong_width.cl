// expect: E0303
kernel void k(global int4 *o) { int2 x = o[0]; o[1].xy = x; }
