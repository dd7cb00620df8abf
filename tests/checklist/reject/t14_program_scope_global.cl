// expect: E0411
global int g;                                    // REJECT: needs __opencl_c_program_scope_global_variables, which kiln does not implement
kernel void k(global int *o) { o[0] = g; }
