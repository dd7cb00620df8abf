// expect: E0330
kernel void k(global float4 *a, global float2 *b) { a[0] = fmin(a[1], b[0].xyxy.x + a[2]) + fmin(a[0], b[0]); }
