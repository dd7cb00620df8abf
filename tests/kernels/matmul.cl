// Matrix multiply C = A * B for N x N int matrices (N from the run spec's defines).
#ifndef N
#define N 4
#endif
kernel void matmul(global const int *A, global const int *B, global int *C) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int sum = 0;
            for (int k = 0; k < N; k++)
                sum += A[i * N + k] * B[k * N + j];
            C[i * N + j] = sum;
        }
}
