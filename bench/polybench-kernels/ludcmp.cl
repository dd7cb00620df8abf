// PolyBench ludcmp (int32, whole program): LU decomposition, then forward and back
// substitution; XOR checksum of x.
#define N 40

kernel void ludcmp(global int *checksum) {
    int A[N][N], B[N][N], b[N], x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = 0;
        y[i] = 0;
        b[i] = (i + 1) / (N * 2) + 4;
    }
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
    for (int i = 0; i < N; i++) {
        int w = b[i];
        for (int j = 0; j < i; j++)
            w -= A[i][j] * y[j];
        y[i] = w;
    }
    for (int i = N - 1; i >= 0; i--) {
        int w = y[i];
        for (int j = i + 1; j < N; j++)
            w -= A[i][j] * x[j];
        x[i] = w / A[i][i];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= x[i];
    checksum[0] = res;
}
