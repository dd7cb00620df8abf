// The OpenCL C twin of loop_attributes.clcpp.
__attribute__((work_group_size_hint(1, 1, 1)))
kernel void loop_attributes(global int *buf, global const int *idx, global int *out, int n) {
#pragma ivdep
    for (int i = 0; i < n; ++i) buf[idx[i]] = buf[idx[i]] + i;
#pragma ivdep safelen(4)
    for (int i = 4; i < n; ++i) out[i] = out[i - 4] * 3 + i;
    int a[8], b[8];
    __attribute__((opencl_unroll_hint(4))) for (int i = 0; i < 8; ++i) {
        a[i] = buf[i];
        b[i] = idx[i];
    }
#pragma unroll 2
    for (int i = 0; i < 4; ++i) {
        int s = 0;
#pragma unroll
        for (int j = 0; j < 8; ++j) s += a[j] * b[j];
        out[i] = s + i;
    }
}
