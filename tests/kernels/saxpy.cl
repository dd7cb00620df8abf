// Integer saxpy: y = a * x + y, with a scalar multiplier.
kernel void saxpy(int a, global const short *x, global int *y, int n) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
