// PolyBench covariance as PolyBench writes it (int32), XOR checksum of cov.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define M 28
#define N 32

kernel void covariance(global int *checksum, int seed) {
    int data[N][M], cov[M][M], mean[M];
    int float_n = N;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] = (i * j + seed) % M;

    for (int j = 0; j < M; j++) {
        mean[j] = 0;
        for (int i = 0; i < N; i++)
            mean[j] += data[i][j];
        mean[j] /= float_n;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] -= mean[j];
    for (int i = 0; i < M; i++)
        for (int j = i; j < M; j++) {
            cov[i][j] = 0;
            for (int k = 0; k < N; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= (float_n - 1);
            cov[j][i] = cov[i][j];
        }

    int res = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            res ^= cov[i][j];
    checksum[0] = res;
}
