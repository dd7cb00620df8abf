// PolyBench doitgen with data that is not all zero (bench/polybench-kernels/doitgen.cl divides
// its initial values by NP, which makes them 0): XOR checksum of A after A[r][q] = A[r][q] * C4.
// On the iCE40 at 60 MHz its 12 products per `p` share two multipliers at II 12, and rtl-gen
// sums each multiplier's products in one accumulator (one read directly, one through a register
// that takes it after the last add). The `s` loop is unrolled as asked; without the pragma kiln
// coalesces it with the `p` loop instead (doitgen_coalesced.cl).
#define NR 10
#define NQ 8
#define NP 12

kernel void doitgen_values(global int *checksum) {
    int A[NR][NQ][NP], C4[NP][NP], sum[NP];
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < NQ; j++)
            for (int k = 0; k < NP; k++)
                A[i][j][k] = (i * j + k) % NP - 5;
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NP; j++)
            C4[i][j] = (i * j) % NP - 6;

    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++) {
            for (int p = 0; p < NP; p++) {
                int acc = 0;
                #pragma unroll
                for (int s = 0; s < NP; s++)
                    acc += A[r][q][s] * C4[s][p];
                sum[p] = acc;
            }
            for (int p = 0; p < NP; p++)
                A[r][q][p] = sum[p];
        }

    int res = 0;
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < NQ; j++)
            for (int k = 0; k < NP; k++)
                res ^= A[i][j][k] * (k + 1);
    checksum[0] = res;
}
