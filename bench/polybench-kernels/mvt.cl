// PolyBench mvt (int32, whole program): x1 += A y1, x2 += A^T y2, XOR checksum of x1 and x2.
#define N 40

kernel void mvt(global int *checksum) {
    int A[N][N], x1[N], x2[N], y1[N], y2[N];
    for (int i = 0; i < N; i++) {
        x1[i] = (i % N) / N;
        x2[i] = ((i + 1) % N) / N;
        y1[i] = ((i + 3) % N) / N;
        y2[i] = ((i + 4) % N) / N;
        for (int j = 0; j < N; j++)
            A[i][j] = ((i * j) % N) / N;
    }

    for (int i = 0; i < N; i++) {
        int acc = x1[i];
        for (int j = 0; j < N; j++)
            acc += A[i][j] * y1[j];
        x1[i] = acc;
    }
    for (int i = 0; i < N; i++) {
        int acc = x2[i];
        for (int j = 0; j < N; j++)
            acc += A[j][i] * y2[j];
        x2[i] = acc;
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= x1[i];
    for (int i = 0; i < N; i++)
        res ^= x2[i];
    checksum[0] = res;
}
