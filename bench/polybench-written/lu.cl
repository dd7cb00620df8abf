// PolyBench lu as PolyBench writes it (int32), XOR checksum of A. As in PolyBench, A starts as
// L·Lᵀ of a unit lower-triangular L (here with entries from the run-time argument `seed`), so
// every pivot is 1 and every division exact.
#define N 40

kernel void lu(global int *checksum, int seed) {
    int A[N][N], B[N][N];
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

    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (int j = i; j < N; j++)
            for (int k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            res ^= A[i][j] * (i + 1) + j;
    checksum[0] = res;
}
