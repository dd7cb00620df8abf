// expect: E0415
kernel void t15(global int *gp, local int *lp) {
    gp = (global int *)lp;        // REJECT: a cast between named spaces is also illegal
}
