// PolyBench gemver (int32, whole program): rank-2 update, then two matrix-vector products; XOR
// checksum of w.
#define N 40

kernel void gemver(global int *checksum) {
    int A[N][N], u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N];
    int alpha = 3, beta = 2;
    for (int i = 0; i < N; i++) {
        u1[i] = i;
        u2[i] = (i + 1) / (N * 2);
        v1[i] = (i + 1) / (N * 4);
        v2[i] = (i + 1) / (N * 6);
        y[i] = (i + 1) / (N * 8);
        z[i] = (i + 1) / (N * 9);
        x[i] = 0;
        w[i] = 0;
        for (int j = 0; j < N; j++)
            A[i][j] = ((i * j) % N) / N;
    }

    for (int i = 0; i < N; i++) {
        int a = u1[i], b = u2[i];
        for (int j = 0; j < N; j++)
            A[i][j] = A[i][j] + a * v1[j] + b * v2[j];
    }
    for (int i = 0; i < N; i++) {
        int acc = x[i];
        for (int j = 0; j < N; j++)
            acc += beta * A[j][i] * y[j];
        x[i] = acc;
    }
    for (int i = 0; i < N; i++)
        x[i] = x[i] + z[i];
    for (int i = 0; i < N; i++) {
        int acc = w[i];
        for (int j = 0; j < N; j++)
            acc += alpha * A[i][j] * x[j];
        w[i] = acc;
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= w[i];
    checksum[0] = res;
}
