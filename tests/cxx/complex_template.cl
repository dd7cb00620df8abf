// The OpenCL C twin of complex_template.clcpp.
typedef struct { int re, im; } cint;
typedef struct { long re, im; } clong;

kernel void complex_template(__global const int *re, __global const int *im, __global int *out, int n) {
    cint acc = {0, 0};
    clong wide = {0, 0};
    for (int i = 0; i < n; ++i) {
        int zr = re[i], zi = im[i];
        acc.re += zr * zr - zi * zi;
        acc.im += zr * zi + zi * zr;
        wide.re = wide.re + (long)re[i];
        wide.im = wide.im + 3;
    }
    out[0] = acc.re;
    out[1] = acc.im;
    out[2] = acc.re * acc.re + acc.im * acc.im;
    out[3] = (int)wide.re;
    out[4] = (int)wide.im;
    out[5] = 1;
    out[6] = acc.re == 0 && acc.im == 0;
}
