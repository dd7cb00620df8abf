// expect: W0427
// kiln accepts this with warning W0427 (issue 57: OpenCL 2.0 program-scope `__global` variables):
// the variable lives in the kernel's on-chip memory, from its initializer at every launch.
global int g;                                    // REJECT: needs __opencl_c_program_scope_global_variables, which kiln does not implement
kernel void k(global int *o) { o[0] = g; }
