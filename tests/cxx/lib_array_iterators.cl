// The OpenCL C twin of lib_array_iterators.clcpp.
kernel void lib_array_iterators(global const int *in, global int *out) {
    int a[8];
    for (int i = 0; i < 8; ++i) a[i] = 3;
    for (int i = 0; i < 8; ++i) a[i] += in[i];
    for (int i = 0; i < 8; ++i) a[i] *= 2;
    int b[4] = {in[8], in[9], in[10], in[11]};
    int s = 0;
    for (int i = 0; i < 8; ++i) s += a[i];
    out[0] = s;
    int t = 0;
    for (int i = 0; i < 4; ++i) t += b[i];
    out[1] = t;
    out[2] = a[0] - a[7];
    out[3] = 12;
    for (int i = 0; i < 4; ++i) out[4 + i] = b[i] * b[i];
}
