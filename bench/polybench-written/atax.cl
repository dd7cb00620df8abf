// PolyBench atax as PolyBench writes it (int32): y = A^T (A x), XOR checksum of y.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define M 38
#define N 42

kernel void atax(global int *checksum, int seed) {
    int A[M][N], x[N], y[N], tmp[M];
    for (int i = 0; i < N; i++)
        x[i] = 1 + (i + seed) % N;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (i + j + seed) % N;

    for (int i = 0; i < N; i++)
        y[i] = 0;
    for (int i = 0; i < M; i++) {
        tmp[i] = 0;
        for (int j = 0; j < N; j++)
            tmp[i] = tmp[i] + A[i][j] * x[j];
        for (int j = 0; j < N; j++)
            y[j] = y[j] + A[i][j] * tmp[i];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= y[i];
    checksum[0] = res;
}
