// T15: pointer address-space conversions through the generic address space (checklist §5).
// engines: emu sim cosim
// expect gp = [42, 41]
kernel void t15(global int *gp, constant int *cp) {
    int *p = gp;
    p[1] = cp[0];
    gp = (global int *)p;
    gp[0] = p[1] + 1;
}
