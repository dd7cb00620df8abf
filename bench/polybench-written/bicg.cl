// PolyBench bicg as PolyBench writes it (int32): s = A^T r, q = A p, XOR checksum of both.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define M 38
#define N 42

kernel void bicg(global int *checksum, int seed) {
    int A[N][M], s[M], q[N], p[M], r[N];
    for (int i = 0; i < M; i++)
        p[i] = (i + seed) % M;
    for (int i = 0; i < N; i++) {
        r[i] = (i + seed) % N;
        for (int j = 0; j < M; j++)
            A[i][j] = (i * (j + 1) + seed) % N;
    }

    for (int i = 0; i < M; i++)
        s[i] = 0;
    for (int i = 0; i < N; i++) {
        q[i] = 0;
        for (int j = 0; j < M; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }

    int res = 0;
    for (int i = 0; i < M; i++)
        res ^= s[i];
    for (int i = 0; i < N; i++)
        res ^= q[i];
    checksum[0] = res;
}
