// PolyBench bicg in float, as PolyBench/C writes it: s = A^T r, q = A p; the sum of s and q.
#define M 38
#define N 42

kernel void bicg(global float *checksum, int seed) {
    float A[N][M], s[M], q[N], p[M], r[N];
    for (int i = 0; i < M; i++)
        p[i] = (float)((i + seed) % M) / M;
    for (int i = 0; i < N; i++) {
        r[i] = (float)((i + seed) % N) / N;
        for (int j = 0; j < M; j++)
            A[i][j] = (float)((i * (j + 1) + seed) % N) / N;
    }

    for (int i = 0; i < M; i++)
        s[i] = 0;
    for (int i = 0; i < N; i++) {
        q[i] = 0.0f;
        for (int j = 0; j < M; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }

    float sum = 0.0f;
    for (int i = 0; i < M; i++)
        sum += s[i];
    for (int i = 0; i < N; i++)
        sum += q[i];
    checksum[0] = sum;
}
