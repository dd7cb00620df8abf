// expect: E0415
kernel void t15(global int *gp, constant int *cp) {
    int *p = gp;
    p = cp;                       // REJECT: constant is not in the generic space
}
