// PolyBench lu (int32, whole program): a positive-definite matrix built as L*L^T, then LU
// decomposition in place; the result is 1 if any element is non-zero.
#define N 40

kernel void lu(global int *checksum) {
    int A[N][N], B[N][N];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            A[i][j] = ((-j) % N) / N + 1;
        for (int j = i + 1; j < N; j++)
            A[i][j] = 0;
        A[i][i] = 1;
    }
    for (int r = 0; r < N; r++)
        for (int s = 0; s < N; s++)
            B[r][s] = 0;
    for (int t = 0; t < N; t++)
        for (int r = 0; r < N; r++) {
            int art = A[r][t];
            for (int s = 0; s < N; s++)
                B[r][s] += art * A[s][t];
        }
    for (int r = 0; r < N; r++)
        for (int s = 0; s < N; s++)
            A[r][s] = B[r][s];

    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            int w = A[i][j];
            for (int k = 0; k < j; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w / A[j][j];
        }
        for (int j = i; j < N; j++) {
            int w = A[i][j];
            for (int k = 0; k < i; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w;
        }
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (A[i][j] != 0)
                res = 1;
    checksum[0] = res;
}
