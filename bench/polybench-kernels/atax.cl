// PolyBench atax (int32, whole program): y = A^T (A x), XOR checksum of y.
#define M 38
#define N 42

kernel void atax(global int *checksum) {
    int A[M][N], x[N], y[N], tmp[M];
    for (int i = 0; i < N; i++)
        x[i] = 1 + i / N;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = ((i + j) % N) / (5 * M);

    for (int i = 0; i < N; i++)
        y[i] = 0;
    for (int i = 0; i < M; i++) {
        int t = 0;
        for (int j = 0; j < N; j++)
            t += A[i][j] * x[j];
        tmp[i] = t;
        for (int j = 0; j < N; j++)
            y[j] = y[j] + A[i][j] * t;
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= y[i];
    checksum[0] = res;
}
