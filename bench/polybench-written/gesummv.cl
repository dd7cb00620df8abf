// PolyBench gesummv as PolyBench writes it (int32): y = alpha*A*x + beta*B*x, XOR checksum of y.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 30

kernel void gesummv(global int *checksum, int seed) {
    int A[N][N], B[N][N], x[N], y[N], tmp[N];
    int alpha = 3, beta = 2;
    for (int i = 0; i < N; i++) {
        x[i] = (i + seed) % N;
        for (int j = 0; j < N; j++) {
            A[i][j] = (i * j + 1 + seed) % N;
            B[i][j] = (i * j + 2 + seed) % N;
        }
    }

    for (int i = 0; i < N; i++) {
        tmp[i] = 0;
        y[i] = 0;
        for (int j = 0; j < N; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= y[i];
    checksum[0] = res;
}
