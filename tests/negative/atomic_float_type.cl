// expect: E0502
kernel void k(global atomic_float *a) { }
