// expect: E0330
kernel void k(global int4 *a, global int2 *b) { a[0] = convert_int4(b[0]); }
