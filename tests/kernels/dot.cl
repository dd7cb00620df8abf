// pocl: no (a kernel named like the built-in `dot()` cannot be created by PoCL)
// Dot product of two integer vectors into one 64-bit result.
kernel void dot(global const int *x, global const int *y, global long *out, int n) {
    long acc = 0;
    for (int i = 0; i < n; ++i)
        acc += (long)x[i] * y[i];
    out[0] = acc;
}
