// PolyBench jacobi-1d in float, as PolyBench/C writes it; the sum of A.
#define N 30
#define TSTEPS 20

kernel void jacobi_1d(global float *checksum, int seed) {
    float A[N], B[N];
    for (int i = 0; i < N; i++) {
        A[i] = ((float)i + seed + 2) / N;
        B[i] = ((float)i + seed + 3) / N;
    }

    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
        for (int i = 1; i < N - 1; i++)
            A[i] = 0.33333f * (B[i - 1] + B[i] + B[i + 1]);
    }

    float sum = 0.0f;
    for (int i = 0; i < N; i++)
        sum += A[i];
    checksum[0] = sum;
}
