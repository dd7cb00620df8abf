// Sums of 12 products per output, doitgen's inner product: an output's products read the local
// copy of `m` twice each through its one port, so the loop over outputs is pipelined at II 24
// and its products share a multiplier; `x` is read from the global buffer in the loop, so the
// pipeline stalls in the cycles it sums in. On the iCE40 at 60 MHz the multiplier's products are
// summed in one accumulator (rtl-gen's serial sums). The `s` loop is unrolled as asked (not
// coalesced with the `p` loop, tests/kernels/coalesced_nests.cl).
#define N 12
kernel void serial_sum(global const int *x, global const int *m, global int *y) {
    int ms[N][N];
    for (int i = 0; i < N * N; i++)
        ms[i / N][i % N] = m[i];
    for (int p = 0; p < N; p++) {
        int acc = 0;
        #pragma unroll
        for (int s = 0; s < N; s++)
            acc += (x[s] ^ ms[s][N - 1 - p]) * ms[s][p];
        y[p] = acc;
    }
}
