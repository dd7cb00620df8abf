// T15: pointer address-space conversions through the generic address space (checklist §5),
// with its `__local` pointer parameter (the launch gives its size).
// engines: emu sim cosim
// expect gp = [42, 41]
kernel void t15(global int *gp, local int *lp, constant int *cp) {
    int *p = gp;
    p[1] = cp[0];
    gp = (global int *)p;
    gp[0] = p[1] + 1;
}
