// PolyBench trmm as PolyBench writes it (int32), XOR checksum of B.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define M 20
#define N 30

kernel void trmm(global int *checksum, int seed) {
    int A[M][M], B[M][N];
    int alpha = 3;
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < i; j++)
            A[i][j] = (i + j + seed) % M;
        A[i][i] = 1;
        for (int j = 0; j < N; j++)
            B[i][j] = (N + i - j + seed) % N;
    }

    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            for (int k = i + 1; k < M; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }

    int res = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            res ^= B[i][j];
    checksum[0] = res;
}
