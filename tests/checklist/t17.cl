// T17: the accepted line of the language-restrictions test (checklist §5): `half` storage read
// with `vload_half` (the REJECT lines are in reject/), a half-to-float conversion in hardware.
// engines: emu sim cosim
// expect o = [-1.5]
kernel void k7(global float *o, global half *p) { o[0] = vload_half(0, p); } // accept
