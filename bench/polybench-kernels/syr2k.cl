// PolyBench syr2k (int32, whole program): symmetric rank-2k update, XOR checksum of C.
#define N 30
#define M 20

kernel void syr2k(global int *checksum) {
    int C[N][N], A[N][M], B[N][M];
    int alpha = 3, beta = 2;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            A[i][j] = ((i * j + 1) % N) / N;
            B[i][j] = ((i * j + 2) % M) / M;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = ((i * j + 3) % N) / M;

    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < M; k++) {
            int aik = A[i][k], bik = B[i][k];
            for (int j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * bik + B[j][k] * alpha * aik;
        }
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            res ^= C[i][j];
    checksum[0] = res;
}
