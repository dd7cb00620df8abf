// PolyBench seidel-2d as PolyBench writes it (int32), XOR checksum of A.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 40
#define TSTEPS 5

kernel void seidel_2d(global int *checksum, int seed) {
    int A[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (i * (j + 2) + 2 + seed) * 9;

    for (int t = 0; t <= TSTEPS - 1; t++)
        for (int i = 1; i <= N - 2; i++)
            for (int j = 1; j <= N - 2; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                         + A[i][j - 1] + A[i][j] + A[i][j + 1]
                         + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9;

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            res ^= A[i][j];
    checksum[0] = res;
}
