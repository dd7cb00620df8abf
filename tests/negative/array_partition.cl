// expect: E0208 E0422
kernel void k(global int *o) {
    int a[8] __attribute__((xcl_array_partition(diagonal, 2, 1)));
    int b[4][4] __attribute__((xcl_array_partition(cyclic, 2, 3)));
    int c __attribute__((xcl_array_partition(complete, 1)));
    int d[1024] __attribute__((xcl_array_partition(complete, 1))); // W0211: built with 256 banks
    a[0] = 1; b[0][0] = 2; c = 3; d[0] = 4;
    o[0] = a[0] + b[0][0] + c + d[0];
}
