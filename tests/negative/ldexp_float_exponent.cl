// expect: E0330
kernel void k(global float4 *o, global float4 *e) { o[0] = ldexp(o[1], e[0]); }
