// expect: E0415
kernel void t15(global int *gp, local int *lp) {
    gp = lp;                      // REJECT: different named address spaces
}
