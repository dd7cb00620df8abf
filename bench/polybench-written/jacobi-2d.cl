// PolyBench jacobi-2d as PolyBench writes it (int32; 0.2 as a shift), XOR checksum of A.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 30
#define TSTEPS 5

kernel void jacobi_2d(global int *checksum, int seed) {
    int A[N][N], B[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (i * (j + 2) + 2 + seed) * 16;
            B[i][j] = (i * (j + 3) + 3 + seed) * 16;
        }

    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                B[i][j] = (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]) >> 2;
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                A[i][j] = (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]) >> 2;
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            res ^= A[i][j];
    checksum[0] = res;
}
