// PolyBench 3mm (int32, whole program): G = (A*B)*(C*D), XOR checksum of G.
#define NI 16
#define NJ 18
#define NK 20
#define NL 22
#define NM 24

kernel void k3mm(global int *checksum) {
    int E[NI][NJ], A[NI][NK], B[NK][NJ], F[NJ][NL], C[NJ][NM], D[NM][NL], G[NI][NL];
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NK; j++)
            A[i][j] = ((i * j + 1) % NI) / (5 * NI);
    for (int i = 0; i < NK; i++)
        for (int j = 0; j < NJ; j++)
            B[i][j] = ((i * (j + 1) + 2) % NJ) / (5 * NJ);
    for (int i = 0; i < NJ; i++)
        for (int j = 0; j < NM; j++)
            C[i][j] = ((i * (j + 3)) % NL) / (5 * NL);
    for (int i = 0; i < NM; i++)
        for (int j = 0; j < NL; j++)
            D[i][j] = ((i * (j + 2) + 2) % NK) / (5 * NK);

    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            int acc = 0;
            for (int k = 0; k < NK; k++)
                acc += A[i][k] * B[k][j];
            E[i][j] = acc;
        }
    for (int i = 0; i < NJ; i++)
        for (int j = 0; j < NL; j++) {
            int acc = 0;
            for (int k = 0; k < NM; k++)
                acc += C[i][k] * D[k][j];
            F[i][j] = acc;
        }
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++) {
            int acc = 0;
            for (int k = 0; k < NJ; k++)
                acc += E[i][k] * F[k][j];
            G[i][j] = acc;
        }

    int res = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++)
            res ^= G[i][j];
    checksum[0] = res;
}
