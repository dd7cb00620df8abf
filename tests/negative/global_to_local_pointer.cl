// expect: E0415
kernel void k(global int *o) { local int *p = o; o[0] = 1; }
