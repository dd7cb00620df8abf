// expect: E0330
// options: -cl-std=CL2.0
kernel void k(global int *o) { local int x; atomic_fetch_add(&x, 1); o[0] = 1; }
