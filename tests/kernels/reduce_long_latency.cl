// A 64-bit reduction at 400 MHz: the adder needs two cycles (its carry chain is split in two
// register-separated halves). The sum is a skewed accumulator (each half of its register is
// written in the cycle its half of the add runs), so the loop still runs at II 1.
// flags: --clock-mhz 400
__kernel void reduce_long_latency(__global const ulong *a, __global ulong *out, int n) {
    ulong sum = 0;
    for (int i = 0; i < n; i++) // expect-loop: pipelined=true rec_mii=1 achieved_ii=1 res_mii=1
        sum += a[i];
    out[0] = sum;
}
