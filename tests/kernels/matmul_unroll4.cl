// Matrix multiply with on-chip copies of A and of B transposed; the dot-product loop is
// unrolled by 4, and kiln splits both arrays into 4 cyclic banks so that the four reads of each
// come from different memories: the unrolled loop reaches II = 1. The copy's inner loop is
// unrolled as asked (not coalesced with its outer loop): eight writes of a row per iteration.
#define N 8
kernel void matmul_unroll4(global const int *a, global const int *b, global int *c) {
    int A[N * N], Bt[N * N];
    for (int i = 0; i < N; i++)
        #pragma unroll
        for (int j = 0; j < N; j++) {
            A[i * N + j] = a[i * N + j];
            Bt[j * N + i] = b[i * N + j];
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int acc = 0;
            #pragma unroll 4
            for (int k = 0; k < N; k++) // expect-loop: pipelined=true achieved_ii=1 mii=1 res_mii=1
                acc += A[i * N + k] * Bt[j * N + k];
            c[i * N + j] = acc;
        }
}
