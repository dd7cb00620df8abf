// PolyBench gesummv in float, as PolyBench/C writes it: y = alpha*A*x + beta*B*x; the sum of y.
#define N 30

kernel void gesummv(global float *checksum, int seed) {
    float A[N][N], B[N][N], tmp[N], x[N], y[N];
    float alpha = 1.5f, beta = 1.2f;
    for (int i = 0; i < N; i++) {
        x[i] = (float)((i + seed) % N) / N;
        for (int j = 0; j < N; j++) {
            A[i][j] = (float)((i * j + seed + 1) % N) / N;
            B[i][j] = (float)((i * j + seed + 2) % N) / N;
        }
    }

    for (int i = 0; i < N; i++) {
        tmp[i] = 0.0f;
        y[i] = 0.0f;
        for (int j = 0; j < N; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }

    float sum = 0.0f;
    for (int i = 0; i < N; i++)
        sum += y[i];
    checksum[0] = sum;
}
