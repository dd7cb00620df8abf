// expect: E0415
// options: -cl-std=CL1.2
kernel void t15(global int *gp) {
    int *p = gp;                  // REJECT: without the generic address space p points to private
}
