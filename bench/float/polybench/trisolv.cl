// PolyBench trisolv in float, as PolyBench/C writes it: forward substitution L x = b; the sum
// of x.
#define N 40

kernel void trisolv(global float *checksum, int seed) {
    float L[N][N], x[N], b[N];
    for (int i = 0; i < N; i++) {
        x[i] = -999;
        b[i] = i + seed;
        for (int j = 0; j <= i; j++)
            L[i][j] = (float)(i + N - j + 1 + seed) * 2 / N;
    }

    for (int i = 0; i < N; i++) {
        x[i] = b[i];
        for (int j = 0; j < i; j++)
            x[i] -= L[i][j] * x[j];
        x[i] = x[i] / L[i][i];
    }

    float sum = 0.0f;
    for (int i = 0; i < N; i++)
        sum += x[i];
    checksum[0] = sum;
}
