// PolyBench durbin as PolyBench writes it (int32; a zero beta divides by -1), XOR checksum of y.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 40

kernel void durbin(global int *checksum, int seed) {
    int r[N], y[N], z[N];
    for (int i = 0; i < N; i++)
        r[i] = (N + 1 - i + seed) % 7;

    int alpha, beta, sum;
    y[0] = -r[0];
    beta = 1;
    alpha = -r[0];
    for (int k = 1; k < N; k++) {
        beta = (1 - alpha * alpha) * beta;
        sum = 0;
        for (int i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + sum) / (beta != 0 ? beta : -1);
        for (int i = 0; i < k; i++)
            z[i] = y[i] + alpha * y[k - i - 1];
        for (int i = 0; i < k; i++)
            y[i] = z[i];
        y[k] = alpha;
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= y[i];
    checksum[0] = res;
}
