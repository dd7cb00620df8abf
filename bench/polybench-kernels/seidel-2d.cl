// PolyBench seidel-2d (int32, whole program): 2-D Gauss-Seidel stencil (in place), 5 time
// steps; XOR checksum of A.
#define N 40
#define TSTEPS 5

kernel void seidel_2d(global int *checksum) {
    int A[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (i * (j + 2) + 2) / N;

    for (int t = 0; t < TSTEPS; t++)
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
