// Matrix multiply as a 2-D NDRange kernel: one work-item per output element, each running the
// dot-product loop over k; work-item sizes come from the launch.
kernel void matmul_nd(global const int *a, global const int *b, global int *c, int n) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    int acc = 0;
    for (int k = 0; k < n; k++) // expect-loop: pipelined=true achieved_ii=1
        acc += a[row * n + k] * b[k * n + col];
    c[row * get_global_size(0) + col] = acc;
}
