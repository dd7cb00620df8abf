// expect: E0303
kernel void k(global float4 *o) { o[0] = (float4)(1.0f, 2.0f); }
