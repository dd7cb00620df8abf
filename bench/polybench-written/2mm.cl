// PolyBench 2mm as PolyBench writes it (int32): D = alpha*A*B*C + beta*D, XOR checksum of D.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define NI 16
#define NJ 18
#define NK 22
#define NL 24

kernel void k2mm(global int *checksum, int seed) {
    int tmp[NI][NJ], A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL];
    int alpha = 2, beta = 2;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NK; j++)
            A[i][j] = (i * j + 1 + seed) % NI;
    for (int i = 0; i < NK; i++)
        for (int j = 0; j < NJ; j++)
            B[i][j] = (i * (j + 1) + seed) % NJ;
    for (int i = 0; i < NJ; i++)
        for (int j = 0; j < NL; j++)
            C[i][j] = (i * (j + 3) + 1 + seed) % NL;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++)
            D[i][j] = (i * (j + 2) + seed) % NK;

    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            tmp[i][j] = 0;
            for (int k = 0; k < NK; ++k)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++) {
            D[i][j] *= beta;
            for (int k = 0; k < NJ; ++k)
                D[i][j] += tmp[i][k] * C[k][j];
        }

    int res = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++)
            res ^= D[i][j];
    checksum[0] = res;
}
