// PolyBench trisolv as PolyBench writes it (int32), XOR checksum of x.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 40

kernel void trisolv(global int *checksum, int seed) {
    int L[N][N], x[N], b[N];
    for (int i = 0; i < N; i++) {
        x[i] = -999;
        b[i] = (i + seed) * 1000;
        for (int j = 0; j <= i; j++)
            L[i][j] = (i + N - j + 1 + seed) % 5 + 1;
    }

    for (int i = 0; i < N; i++) {
        x[i] = b[i];
        for (int j = 0; j < i; j++)
            x[i] -= L[i][j] * x[j];
        x[i] = x[i] / L[i][i];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= x[i];
    checksum[0] = res;
}
