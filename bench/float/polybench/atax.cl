// PolyBench atax in float, as PolyBench/C writes it: y = A^T (A x); the sum of y.
#define M 38
#define N 42

kernel void atax(global float *checksum, int seed) {
    float A[M][N], x[N], y[N], tmp[M];
    float fn = (float)N;
    for (int i = 0; i < N; i++)
        x[i] = 1 + (i + seed) / fn;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (float)((i + j + seed) % N) / (5 * M);

    for (int i = 0; i < N; i++)
        y[i] = 0;
    for (int i = 0; i < M; i++) {
        tmp[i] = 0.0f;
        for (int j = 0; j < N; j++)
            tmp[i] = tmp[i] + A[i][j] * x[j];
        for (int j = 0; j < N; j++)
            y[j] = y[j] + A[i][j] * tmp[i];
    }

    float sum = 0.0f;
    for (int i = 0; i < N; i++)
        sum += y[i];
    checksum[0] = sum;
}
