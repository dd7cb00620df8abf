// PolyBench gemver as PolyBench writes it (int32), XOR checksum of w.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 40

kernel void gemver(global int *checksum, int seed) {
    int A[N][N], u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N];
    int alpha = 3, beta = 2;
    for (int i = 0; i < N; i++) {
        u1[i] = i;
        u2[i] = (i + 1 + seed) % 5;
        v1[i] = (i + 1 + seed) % 7;
        v2[i] = (i + 1 + seed) % 9;
        y[i] = (i + 1 + seed) % 11;
        z[i] = (i + 1 + seed) % 13;
        x[i] = 0;
        w[i] = 0;
        for (int j = 0; j < N; j++)
            A[i][j] = (i * j + seed) % N;
    }

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x[i] = x[i] + beta * A[j][i] * y[j];
    for (int i = 0; i < N; i++)
        x[i] = x[i] + z[i];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            w[i] = w[i] + alpha * A[i][j] * x[j];

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= w[i];
    checksum[0] = res;
}
