// PolyBench syrk in float, as PolyBench/C writes it: C = alpha*A*A^T + beta*C (lower
// triangle); the sum of C.
#define N 30
#define M 20

kernel void syrk(global float *checksum, int seed) {
    float A[N][M], C[N][N];
    float alpha = 1.5f, beta = 1.2f;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            A[i][j] = (float)((i * j + seed + 1) % N) / N;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = (float)((i * j + seed + 2) % M) / M;

    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < M; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }

    float sum = 0.0f;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum += C[i][j];
    checksum[0] = sum;
}
