// PolyBench doitgen (int32, whole program): multiresolution analysis kernel, XOR checksum of A.
#define NR 10
#define NQ 8
#define NP 12

kernel void doitgen(global int *checksum) {
    int A[NR][NQ][NP], C4[NP][NP], sum[NP];
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < NQ; j++)
            for (int k = 0; k < NP; k++)
                A[i][j][k] = ((i * j + k) % NP) / NP;
    for (int i = 0; i < NP; i++)
        for (int j = 0; j < NP; j++)
            C4[i][j] = ((i * j) % NP) / NP;

    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++) {
            for (int p = 0; p < NP; p++) {
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
                res ^= A[i][j][k];
    checksum[0] = res;
}
