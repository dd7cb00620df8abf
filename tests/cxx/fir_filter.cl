// The OpenCL C twin of fir_filter.clcpp.
kernel void fir_filter(__global const int *restrict in, __global int *restrict out, int n) {
    int shift[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < n; ++i) {
#pragma unroll
        for (int t = 7; t > 0; --t) shift[t] = shift[t - 1];
        shift[0] = in[i];
        int acc = 0;
#pragma unroll
        for (int t = 0; t < 8; ++t) acc += shift[t] * (t < 4 ? t + 1 : 8 - t);
        out[i] = acc;
    }
}
