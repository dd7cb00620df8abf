// PolyBench jacobi-1d as PolyBench writes it (int32; 0.33333 as a shift), XOR checksum of A.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 30
#define TSTEPS 20

kernel void jacobi_1d(global int *checksum, int seed) {
    int A[N], B[N];
    for (int i = 0; i < N; i++) {
        A[i] = (i + 2 + seed) * 64;
        B[i] = (i + 3 + seed) * 64;
    }

    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            B[i] = (A[i - 1] + A[i] + A[i + 1]) >> 2;
        for (int i = 1; i < N - 1; i++)
            A[i] = (B[i - 1] + B[i] + B[i + 1]) >> 2;
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        res ^= A[i];
    checksum[0] = res;
}
