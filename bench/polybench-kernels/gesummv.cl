// PolyBench gesummv (int32, whole program): y = alpha*A*x + beta*B*x, XOR checksum of y.
#define N 30

kernel void gesummv(global int *checksum) {
    int A[N][N], B[N][N], x[N], y[N], tmp[N];
    int alpha = 3, beta = 2;
    for (int i = 0; i < N; i++) {
        x[i] = (i % N) / N;
        for (int j = 0; j < N; j++) {
            A[i][j] = ((i * j + 1) % N) / N;
            B[i][j] = ((i * j + 2) % N) / N;
        }
    }

    for (int i = 0; i < N; i++) {
        int t = 0, yi = 0;
        for (int j = 0; j < N; j++) {
            t += A[i][j] * x[j];
            yi += B[i][j] * x[j];
        }
        tmp[i] = t;
        y[i] = alpha * t + beta * yi;
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= y[i];
    checksum[0] = res;
}
