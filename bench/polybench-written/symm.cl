// PolyBench symm as PolyBench writes it (int32), checksum of C.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define M 20
#define N 30

kernel void symm(global int *checksum, int seed) {
    int C[M][N], A[M][M], B[M][N];
    int alpha = 3, beta = 2;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            C[i][j] = (i + j + seed) % 100 % M;
            B[i][j] = (N + i - j + seed) % 100 % M;
        }
    for (int i = 0; i < M; i++) {
        for (int j = 0; j <= i; j++)
            A[i][j] = (i + j + seed) % 100 % M;
        for (int j = i + 1; j < M; j++)
            A[i][j] = -999;
    }

    int temp2;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            temp2 = 0;
            for (int k = 0; k < i; k++) {
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
        }

    int res = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            res = res * 31 + C[i][j];
    checksum[0] = res;
}
