// PolyBench 3mm as PolyBench writes it (int32): G = (A*B)*(C*D), XOR checksum of G.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define NI 16
#define NJ 18
#define NK 20
#define NL 22
#define NM 24

kernel void k3mm(global int *checksum, int seed) {
    int E[NI][NJ], A[NI][NK], B[NK][NJ], F[NJ][NL], C[NJ][NM], D[NM][NL], G[NI][NL];
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NK; j++)
            A[i][j] = (i * j + 1 + seed) % NI;
    for (int i = 0; i < NK; i++)
        for (int j = 0; j < NJ; j++)
            B[i][j] = (i * (j + 1) + 2 + seed) % NJ;
    for (int i = 0; i < NJ; i++)
        for (int j = 0; j < NM; j++)
            C[i][j] = (i * (j + 3) + seed) % NL;
    for (int i = 0; i < NM; i++)
        for (int j = 0; j < NL; j++)
            D[i][j] = (i * (j + 2) + 2 + seed) % NK;

    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            E[i][j] = 0;
            for (int k = 0; k < NK; ++k)
                E[i][j] += A[i][k] * B[k][j];
        }
    for (int i = 0; i < NJ; i++)
        for (int j = 0; j < NL; j++) {
            F[i][j] = 0;
            for (int k = 0; k < NM; ++k)
                F[i][j] += C[i][k] * D[k][j];
        }
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++) {
            G[i][j] = 0;
            for (int k = 0; k < NJ; ++k)
                G[i][j] += E[i][k] * F[k][j];
        }

    int res = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++)
            res ^= G[i][j];
    checksum[0] = res;
}
