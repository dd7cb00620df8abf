// expect: E0419
kernel void t11(global float *o) {
    float ff = 1.0f; float r = ff << 1;             // REJECT: shift on float
    o[0] = r;
}
