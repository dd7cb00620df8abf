// PolyBench 2mm (int32, whole program): D = alpha*A*B*C + beta*D, XOR checksum of D.
#define NI 16
#define NJ 18
#define NK 22
#define NL 24

kernel void k2mm(global int *checksum) {
    int tmp[NI][NJ], A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL];
    int alpha = 2, beta = 2;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NK; j++)
            A[i][j] = ((i * j + 1) % NI) / NI;
    for (int i = 0; i < NK; i++)
        for (int j = 0; j < NJ; j++)
            B[i][j] = ((i * (j + 1)) % NJ) / NJ;
    for (int i = 0; i < NJ; i++)
        for (int j = 0; j < NL; j++)
            C[i][j] = ((i * (j + 3) + 1) % NL) / NL;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++)
            D[i][j] = ((i * (j + 2)) % NK) / NK;

    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            int acc = 0;
            for (int k = 0; k < NK; k++)
                acc += alpha * A[i][k] * B[k][j];
            tmp[i][j] = acc;
        }
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++) {
            int acc = D[i][j] * beta;
            for (int k = 0; k < NJ; k++)
                acc += tmp[i][k] * C[k][j];
            D[i][j] = acc;
        }

    int res = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++)
            res ^= D[i][j];
    checksum[0] = res;
}
