// The OpenCL C twin of matrix_class.clcpp.
kernel void matrix_class(__global const int *in, __global int *out) {
    int a[4][4], b[4][4], w[4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) a[i][j] = in[i * 4 + j];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            int s = 0;
            for (int k = 0; k < 4; ++k) s += a[i][k] * a[k][j];
            b[i][j] = s;
        }
    for (int i = 0; i < 4; ++i) {
        int s = 0;
        for (int k = 0; k < 4; ++k) s += a[i][k] * in[16 + k];
        w[i] = s;
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) out[i * 4 + j] = b[i][j];
    for (int i = 0; i < 4; ++i) out[16 + i] = w[i];
    int t = 0;
    for (int i = 0; i < 4; ++i) t += a[i][i] + b[i][i];
    out[20] = t;
}
