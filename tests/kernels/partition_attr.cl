// Explicit banking as Vitis users write it. `rows` is split along its inner dimension into 4
// cyclic banks, so the four reads of the unrolled loop hit four memories (II = 1); `halves` is
// split into two blocks (each access picks its bank at run time); `w` is split completely,
// one register per element.
#define N 32
kernel void partition_attr(global const int *in, global int *out) {
    int rows[4][N] __attribute__((xcl_array_partition(cyclic, 4, 2)));
    int halves[2 * N] __attribute__((xcl_array_partition(block, 2, 1)));
    int w[4] __attribute__((xcl_array_partition(complete, 1)));
    for (int k = 0; k < 4; k++)
        w[k] = (in[k] & 7) - 3;
    for (int r = 0; r < 4; r++)
        for (int j = 0; j < N; j++)
            rows[r][j] = in[4 + r * N + j];
    for (int j = 0; j < 2 * N; j++)
        halves[j] = in[4 + j] ^ j;
    for (int r = 0; r < 4; r++) {
        int acc = 0;
        #pragma unroll 4
        for (int j = 0; j < N; j++) // expect-loop: pipelined=true achieved_ii=1 mii=1
            acc += rows[r][j] * w[j % 4];
        out[r] = acc + halves[r * 16 + 3] - halves[2 * N - 1 - r];
    }
}
