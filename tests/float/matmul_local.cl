// A tiled float matrix multiply: tiles in __local memory, barriers between phases. With
// contraction off, every engine adds the same products in the same order.
#pragma OPENCL FP_CONTRACT OFF
#define TILE 4
kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul_local(global const float *a, global const float *b, global float *c, int n) {
    local float ta[TILE][TILE];
    local float tb[TILE][TILE];
    int row = get_global_id(1), col = get_global_id(0);
    int lr = get_local_id(1), lc = get_local_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        ta[lr][lc] = a[row * n + t * TILE + lc];
        tb[lr][lc] = b[(t * TILE + lr) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc += ta[lr][k] * tb[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = acc;
}
