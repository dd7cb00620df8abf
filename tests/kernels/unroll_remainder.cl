// Partial unrolling with a trip count known only at run time: `#pragma unroll 4` makes a loop of
// four copies guarded by `i + 3 < n` and a remainder loop for the last `n mod 4` elements; the
// result must not depend on n's remainder. The private array is split into 4 banks.
kernel void unroll_remainder(global const int *x, global int *y, int n) {
    int buf[64];
    for (int i = 0; i < n; i++)
        buf[i] = x[i];
    int acc = 0;
    #pragma unroll 4
    for (int i = 0; i < n; i++) // expect-loop: pipelined=true achieved_ii=1
        acc += buf[i] * (i + 1);
    y[0] = acc;
    // A fully unrolled loop with a `break`: stops at the first negative element.
    int first = -1;
    #pragma unroll
    for (int i = 0; i < 8; i++) {
        if (x[i] < 0) {
            first = i;
            break;
        }
    }
    y[1] = first;
}
