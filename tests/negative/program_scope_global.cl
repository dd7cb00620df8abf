// expect: E0411
// A program-scope `__global` variable holding a pointer is not built (scalars and arrays of
// scalars are).
global int *global g;
kernel void k(global int *a) { }
