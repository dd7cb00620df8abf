// expect: E0416
kernel void t16(global float *a) {
    while (a[0] > 0.0f) { static global int inside; a[0] -= 1.0f; } // REJECT: needs __opencl_c_program_scope_global_variables (not in kiln)
}
