// expect: E0115
// options: -cl-std=CL1.2
#define V(...) __VA_ARGS__
kernel void k(global int *o) { o[0] = V(1); }
