// expect: E0415
kernel void t15(global int *gp) {
    int *p = gp;
    gp = p;                       // REJECT: generic to named needs a cast
}
