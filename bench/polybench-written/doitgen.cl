// PolyBench doitgen as PolyBench writes it (int32), XOR checksum of A.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define NR 10
#define NQ 8
#define NP 12

kernel void doitgen(global int *checksum, int seed) {
    int A[NR][NQ][NP], C4[NP][NP], sum[NP];
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < NQ; j++)
            for (int k = 0; k < NP; k++)
                A[i][j][k] = (i * j + k + seed) % NP;
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NP; j++)
            C4[i][j] = (i * j + seed) % NP;

    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++) {
            for (int p = 0; p < NP; p++) {
                sum[p] = 0;
                for (int s = 0; s < NP; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (int p = 0; p < NP; p++)
                A[r][q][p] = sum[p];
        }

    int res = 0;
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < NQ; j++)
            for (int k = 0; k < NP; k++)
                res ^= A[i][j][k];
    checksum[0] = res;
}
