// Vector addition.
__kernel void vadd(__global const int *a, __global const int *b, __global int *c, int n) {
    for (int i = 0; i < n; i++) // expect-loop: pipelined=true achieved_ii=1 mii=1
        c[i] = a[i] + b[i];
}
