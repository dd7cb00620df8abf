// PolyBench ludcmp as PolyBench writes it (int32), XOR checksum of x. As in PolyBench, A starts
// as L·Lᵀ of a unit lower-triangular L (here with entries from the run-time argument `seed`),
// so every pivot is 1 and every division exact.
#define N 40

kernel void ludcmp(global int *checksum, int seed) {
    int A[N][N], B[N][N], b[N], x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = 0;
        y[i] = 0;
        b[i] = (i + 1 + seed) % 9 + 4;
    }
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++)
            A[i][j] = (i + j + seed) % 3 - 1;
        A[i][i] = 1;
        for (int j = i + 1; j < N; j++)
            A[i][j] = 0;
    }
    for (int r = 0; r < N; ++r)
        for (int s = 0; s < N; ++s)
            B[r][s] = 0;
    for (int t = 0; t < N; ++t)
        for (int r = 0; r < N; ++r)
            for (int s = 0; s < N; ++s)
                B[r][s] += A[r][t] * A[s][t];
    for (int r = 0; r < N; ++r)
        for (int s = 0; s < N; ++s)
            A[r][s] = B[r][s];

    int w;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            w = A[i][j];
            for (int k = 0; k < j; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w / A[j][j];
        }
        for (int j = i; j < N; j++) {
            w = A[i][j];
            for (int k = 0; k < i; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w;
        }
    }
    for (int i = 0; i < N; i++) {
        w = b[i];
        for (int j = 0; j < i; j++)
            w -= A[i][j] * y[j];
        y[i] = w;
    }
    for (int i = N - 1; i >= 0; i--) {
        w = y[i];
        for (int j = i + 1; j < N; j++)
            w -= A[i][j] * x[j];
        x[i] = w / A[i][i];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= x[i];
    checksum[0] = res;
}
