// expect: E0330
kernel void k(global float2 *v) { v[0] = cross(v[0], v[1]); }
