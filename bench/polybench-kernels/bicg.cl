// PolyBench bicg (int32, whole program): s = A^T r, q = A p, XOR checksum of s and q.
#define M 38
#define N 42

kernel void bicg(global int *checksum) {
    int A[N][M], s[M], q[N], p[M], r[N];
    for (int i = 0; i < M; i++)
        p[i] = (i % M) / M;
    for (int i = 0; i < N; i++) {
        r[i] = (i % N) / N;
        for (int j = 0; j < M; j++)
            A[i][j] = ((i * (j + 1)) % N) / N;
    }

    for (int i = 0; i < M; i++)
        s[i] = 0;
    for (int i = 0; i < N; i++) {
        int qi = 0;
        int ri = r[i];
        for (int j = 0; j < M; j++) {
            int a = A[i][j];
            s[j] = s[j] + ri * a;
            qi += a * p[j];
        }
        q[i] = qi;
    }

    int res = 0;
    for (int i = 0; i < M; i++)
        res ^= s[i];
    for (int i = 0; i < N; i++)
        res ^= q[i];
    checksum[0] = res;
}
