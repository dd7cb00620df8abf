// PolyBench mvt in float, as PolyBench/C writes it: x1 += A y1, x2 += A^T y2; the sum of x1, x2.
#define N 40

kernel void mvt(global float *checksum, int seed) {
    float A[N][N], x1[N], x2[N], y1[N], y2[N];
    for (int i = 0; i < N; i++) {
        x1[i] = (float)((i + seed) % N) / N;
        x2[i] = (float)((i + seed + 1) % N) / N;
        y1[i] = (float)((i + seed + 3) % N) / N;
        y2[i] = (float)((i + seed + 4) % N) / N;
        for (int j = 0; j < N; j++)
            A[i][j] = (float)((i * j + seed) % N) / N;
    }

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x1[i] = x1[i] + A[i][j] * y1[j];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x2[i] = x2[i] + A[j][i] * y2[j];

    float sum = 0.0f;
    for (int i = 0; i < N; i++)
        sum += x1[i] + x2[i];
    checksum[0] = sum;
}
