// expect: E0417
// options: -cl-std=CL2.0
kernel void t02(global float *o) {
    float2 c;    c.r = 1.0f;                  // REJECT: .rgba is OpenCL C 3.0 only
    o[0] = c.x;
}
