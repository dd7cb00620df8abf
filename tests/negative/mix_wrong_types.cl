// expect: E0330
kernel void k(global float4 *o, global int4 *i) { o[0] = mix(o[1], o[2], i[0]); }
