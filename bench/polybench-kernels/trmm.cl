// PolyBench trmm (int32, whole program): triangular matrix multiply, XOR checksum of B.
#define M 20
#define N 30

kernel void trmm(global int *checksum) {
    int A[M][M], B[M][N];
    int alpha = 3;
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < i; j++)
            A[i][j] = ((i + j) % M) / M;
        A[i][i] = 1;
        for (int j = 0; j < N; j++)
            B[i][j] = ((N + i - j) % N) / N;
    }

    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int acc = B[i][j];
            for (int k = i + 1; k < M; k++)
                acc += A[k][i] * B[k][j];
            B[i][j] = alpha * acc;
        }

    int res = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            res ^= B[i][j];
    checksum[0] = res;
}
