// PolyBench mvt as PolyBench writes it (int32), XOR checksum of x1 and x2.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 40

kernel void mvt(global int *checksum, int seed) {
    int A[N][N], x1[N], x2[N], y_1[N], y_2[N];
    for (int i = 0; i < N; i++) {
        x1[i] = (i + seed) % N;
        x2[i] = (i + 1 + seed) % N;
        y_1[i] = (i + 3 + seed) % N;
        y_2[i] = (i + 4 + seed) % N;
        for (int j = 0; j < N; j++)
            A[i][j] = (i * j + seed) % N;
    }

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x1[i] = x1[i] + A[i][j] * y_1[j];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x2[i] = x2[i] + A[j][i] * y_2[j];

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= x1[i] ^ x2[i];
    checksum[0] = res;
}
