// PolyBench syrk as PolyBench writes it (int32), XOR checksum of C.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 30
#define M 20

kernel void syrk(global int *checksum, int seed) {
    int C[N][N], A[N][M];
    int alpha = 3, beta = 2;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            A[i][j] = (i * j + 1 + seed) % N;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = (i * j + 2 + seed) % M;

    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < M; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            res ^= C[i][j];
    checksum[0] = res;
}
