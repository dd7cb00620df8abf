// expect: E0509
// not yet: `__local` pointer kernel parameters
kernel void t15(global int *gp, local int *lp, constant int *cp) {
    int *p = gp;
    gp = (global int *)p;
}
