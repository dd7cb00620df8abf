// 64-bit running sums at 400 MHz, where each adder needs two cycles (its carry chain split in
// two register-separated halves). The sums are skewed accumulators: each half of a sum's
// register is written in the cycle its half of the add runs, so the next iteration's low half
// starts a cycle after this one's, and both loops run at II 1 although each stores the whole
// sum of every iteration.
// flags: --clock-mhz 400
__kernel void running_sum_long(__global const ulong *a, __global ulong *out, int n) {
    ulong sum = 0;
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=true rec_mii=1 achieved_ii=1
        sum += a[i];
        out[i] = sum;
    }
    // A test-last loop, and a difference: the accumulator is the minuend.
    ulong rest = 0x8000000000000000UL;
    int j = n;
    do { // expect-loop: pipelined=true rec_mii=1 achieved_ii=1
        rest = rest - a[j - 1];
        out[n + j - 1] = rest;
    } while (j-- > 1);
}
