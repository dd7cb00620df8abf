// PolyBench trisolv (int32, whole program): forward substitution with a lower-triangular
// matrix, XOR checksum of x.
#define N 40

kernel void trisolv(global int *checksum) {
    int L[N][N], x[N], b[N];
    for (int i = 0; i < N; i++) {
        x[i] = -999;
        b[i] = i;
        for (int j = 0; j <= i; j++)
            L[i][j] = ((i + N - j + 1) * 2) / N;
    }

    for (int i = 0; i < N; i++) {
        int w = b[i];
        for (int j = 0; j < i; j++)
            w -= L[i][j] * x[j];
        x[i] = w / L[i][i];
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= x[i];
    checksum[0] = res;
}
