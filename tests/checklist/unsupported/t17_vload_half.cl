// expect: E0502 E0511
// not yet: `half` storage: `global half *` and `vload_half`
kernel void k7(global float *o, global half *p) { o[0] = vload_half(0, p); } // accept
