// flags: --target ice40-up5k --clock-mhz 60
// PolyBench doitgen with data that is not all zero, as bench/polybench-kernels/doitgen.cl is
// built: the `p` and `s` loops are coalesced into one loop of 12 x (12 + 1) iterations at II 1
// (`C4[s][p]` comes through one port a word a cycle either way), with one multiplier, the sum
// restarting from 0 in its register's synchronous reset and `sum[p] = acc` in an iteration of
// its own; the copy of `C4` is coalesced too.
#define NR 10
#define NQ 8
#define NP 12

kernel void doitgen_coalesced(global int *checksum) {
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
            for (int p = 0; p < NP; p++) { // expect-loop: pipelined=true achieved_ii=1 trip_count=156
                int acc = 0;
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
