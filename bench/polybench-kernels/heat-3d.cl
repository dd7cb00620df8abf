// PolyBench heat-3d (int32, whole program): 3-D heat equation with shifts, 5 time steps; XOR
// checksum of A.
#define N 10

kernel void heat_3d(global int *checksum) {
    int A[N][N][N], B[N][N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++) {
                int v = (i + j + (N - k)) * (10 / N);
                A[i][j][k] = v;
                B[i][j][k] = v;
            }

    for (int t = 1; t <= 5; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    B[i][j][k] = ((A[i + 1][j][k] - 2 * A[i][j][k] + A[i - 1][j][k]) >> 4)
                               + ((A[i][j + 1][k] - 2 * A[i][j][k] + A[i][j - 1][k]) >> 4)
                               + ((A[i][j][k + 1] - 2 * A[i][j][k] + A[i][j][k - 1]) >> 4)
                               + A[i][j][k];
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    A[i][j][k] = ((B[i + 1][j][k] - 2 * B[i][j][k] + B[i - 1][j][k]) >> 4)
                               + ((B[i][j + 1][k] - 2 * B[i][j][k] + B[i][j - 1][k]) >> 4)
                               + ((B[i][j][k + 1] - 2 * B[i][j][k] + B[i][j][k - 1]) >> 4)
                               + B[i][j][k];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                res ^= A[i][j][k];
    checksum[0] = res;
}
