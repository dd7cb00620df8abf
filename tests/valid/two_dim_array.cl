// valid: two dim array
kernel void k(global int *o) { int m[2][3] = {{1, 2, 3}, {4, 5, 6}}; o[0] = m[1][2] + m[0][1]; }
