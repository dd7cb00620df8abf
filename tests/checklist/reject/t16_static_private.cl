// expect: E0416
kernel void t16(global float *a) {
    static float c;                                              // REJECT: no implicit address space for static
}
