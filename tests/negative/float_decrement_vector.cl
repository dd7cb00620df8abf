// expect: E0419
kernel void k(global float4 *o) { float4 v = o[0]; --v; o[0] = v; }
