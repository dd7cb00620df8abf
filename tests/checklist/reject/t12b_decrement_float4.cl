// expect: E0419
kernel void t12b(global float4 *p) { float4 v = p[0]; --v; p[0] = v; } // REJECT
