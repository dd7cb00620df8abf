// expect: E0303
kernel void k(global float4 *o) { float4 v = o[0]; o[1] = v ? v : -v; }
