// PolyBench gemm as PolyBench writes it (int32): C = alpha*A*B + beta*C, XOR checksum of C.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define NI 20
#define NJ 25
#define NK 30

kernel void gemm(global int *checksum, int seed) {
    int A[NI][NK], B[NK][NJ], C[NI][NJ];
    int alpha = 2, beta = 2;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = (i * j + 1 + seed) % NI;
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (i * (k + 1) + seed) % NK;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (k * (j + 2) + seed) % NJ;

    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++)
            C[i][j] *= beta;
        for (int k = 0; k < NK; k++)
            for (int j = 0; j < NJ; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }

    int res = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            res ^= C[i][j];
    checksum[0] = res;
}
