// PolyBench gemm in float, as PolyBench/C writes it (DATA_TYPE float): C = alpha*A*B + beta*C.
// The initial data depends on `seed`, a run-time argument, so that nothing folds; the result is
// the sum of C.
#define NI 20
#define NJ 25
#define NK 30

kernel void gemm(global float *checksum, int seed) {
    float A[NI][NK], B[NK][NJ], C[NI][NJ];
    float alpha = 1.5f, beta = 1.2f;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = (float)((i * j + seed) % NI) / NI;
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (float)((i * (k + seed)) % NK) / NK;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (float)((k * (j + seed + 1)) % NJ) / NJ;

    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++)
            C[i][j] *= beta;
        for (int k = 0; k < NK; k++)
            for (int j = 0; j < NJ; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }

    float sum = 0.0f;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            sum += C[i][j];
    checksum[0] = sum;
}
