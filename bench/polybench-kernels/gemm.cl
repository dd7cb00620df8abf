// PolyBench gemm (int32, whole program): C = alpha*A*B + beta*C, then an XOR checksum of C.
#define NI 20
#define NJ 25
#define NK 30

kernel void gemm(global int *checksum) {
    int A[NI][NK], B[NK][NJ], C[NI][NJ];
    int alpha = 2, beta = 2;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = ((i * j + 1) % NI) / NI;
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = ((i * (k + 1)) % NK) / NK;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = ((k * (j + 2)) % NJ) / NJ;

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
