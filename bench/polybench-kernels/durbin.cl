// PolyBench durbin (int32, whole program): Levinson-Durbin recursion, XOR checksum of y.
// In int32, `beta` wraps to 0 after some steps and PolyBench's `sum / beta` then divides by zero
// (undefined in C, a trap on x86). The kernel spells out kiln's documented result of `x / 0`
// (all ones, -1) so that the C reference computes the same thing.
#define N 40

kernel void durbin(global int *checksum) {
    int r[N], y[N], z[N];
    for (int i = 0; i < N; i++)
        r[i] = N + 1 - i;

    y[0] = -r[0];
    int beta = 1;
    int alpha = -r[0];
    for (int k = 1; k < N; k++) {
        beta = (1 - alpha * alpha) * beta;
        int sum = 0;
        for (int i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + (beta != 0 ? sum / beta : -1));
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
