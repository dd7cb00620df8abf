// PolyBench heat-3d as PolyBench writes it (int32; the coefficient 0.125 as a shift), XOR
// checksum of A. The initial data depends on the run-time argument `seed`.
#define N 10
#define TSTEPS 5

kernel void heat_3d(global int *checksum, int seed) {
    int A[N][N][N], B[N][N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                A[i][j][k] = B[i][j][k] = (i * 7 + j * 3 + k * 5 + seed) % 23 * 100;

    for (int t = 1; t <= TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    B[i][j][k] = ((A[i + 1][j][k] - 2 * A[i][j][k] + A[i - 1][j][k]) >> 3)
                               + ((A[i][j + 1][k] - 2 * A[i][j][k] + A[i][j - 1][k]) >> 3)
                               + ((A[i][j][k + 1] - 2 * A[i][j][k] + A[i][j][k - 1]) >> 3)
                               + A[i][j][k];
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    A[i][j][k] = ((B[i + 1][j][k] - 2 * B[i][j][k] + B[i - 1][j][k]) >> 3)
                               + ((B[i][j + 1][k] - 2 * B[i][j][k] + B[i][j - 1][k]) >> 3)
                               + ((B[i][j][k + 1] - 2 * B[i][j][k] + B[i][j][k - 1]) >> 3)
                               + B[i][j][k];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                res ^= A[i][j][k];
    checksum[0] = res;
}
