// PolyBench symm (int32, whole program): symmetric matrix multiply, XOR checksum of C.
#define M 20
#define N 30

kernel void symm(global int *checksum) {
    int C[M][N], A[M][M], B[M][N];
    int alpha = 3, beta = 2;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            C[i][j] = ((i + j) % 100) / M;
            B[i][j] = ((N + i - j) % 100) / M;
        }
    for (int i = 0; i < M; i++) {
        for (int j = 0; j <= i; j++)
            A[i][j] = ((i + j) % 100) / M;
        for (int j = i + 1; j < M; j++)
            A[i][j] = -999;
    }

    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int temp2 = 0;
            int bij = B[i][j];
            for (int k = 0; k < i; k++) {
                int aik = A[i][k];
                C[k][j] += alpha * bij * aik;
                temp2 += B[k][j] * aik;
            }
            C[i][j] = beta * C[i][j] + alpha * bij * A[i][i] + alpha * temp2;
        }

    int res = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            res ^= C[i][j];
    checksum[0] = res;
}
