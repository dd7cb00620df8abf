// PolyBench jacobi-1d (int32, whole program): 1-D Jacobi stencil, 20 time steps; XOR checksum
// of A.
#define N 30
#define TSTEPS 20

kernel void jacobi_1d(global int *checksum) {
    int A[N], B[N];
    for (int i = 0; i < N; i++) {
        A[i] = (i + 2) / N;
        B[i] = (i + 3) / N;
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
