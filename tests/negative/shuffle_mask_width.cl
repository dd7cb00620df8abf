// expect: E0330
kernel void k(global int4 *o) { o[0] = shuffle(o[1], (ushort4)(0, 1, 2, 3)); }
