// PolyBench covariance (int32, whole program): column means, centring, covariance matrix; XOR
// checksum of cov.
#define M 28
#define N 32

kernel void covariance(global int *checksum) {
    int data[N][M], cov[M][M], mean[M];
    int float_n = N;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] = (i * j) / M;

    for (int j = 0; j < M; j++) {
        int acc = 0;
        for (int i = 0; i < N; i++)
            acc += data[i][j];
        mean[j] = acc / float_n;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] -= mean[j];
    for (int i = 0; i < M; i++)
        for (int j = i; j < M; j++) {
            int acc = 0;
            for (int k = 0; k < N; k++)
                acc += data[k][i] * data[k][j];
            acc = acc / (float_n - 1);
            cov[i][j] = acc;
            cov[j][i] = acc;
        }

    int res = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            res ^= cov[i][j];
    checksum[0] = res;
}
