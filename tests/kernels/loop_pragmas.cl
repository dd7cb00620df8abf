// The loop pragmas and attributes of the FPGA dialects, each visible in the loop report:
// a requested II, Xilinx's xcl_pipeline_loop, pipelining turned off, coalescing of a nest whose
// inner loop would otherwise be unrolled, a partial unroll hint, and ivdep with a safe length
// against the same loop without it.
kernel void loop_pragmas(global const int *in, global int *out, int d) {
    int acc = 0;
    #pragma ii 2
    for (int i = 0; i < 16; i++) // expect-loop: pipelined=true achieved_ii=2 target_ii=2 mii=2
        acc += in[i];
    out[0] = acc;

    int x = 0;
    __attribute__((xcl_pipeline_loop(3)))
    for (int i = 0; i < 16; i++) // expect-loop: pipelined=true achieved_ii=3 target_ii=3
        x ^= (in[i] * in[39 - i]) >> (i & 7);
    out[1] = x;

    int y = 1;
    #pragma disable_loop_pipelining
    for (int i = 0; i < 16; i++) // expect-loop: pipelined=false
        y = y * 3 + in[i];
    out[2] = y;

    int grid[4][8];
    #pragma loop_coalesce
    for (int r = 0; r < 4; r++) // expect-loop: pipelined=true achieved_ii=1 trip_count=32
        for (int c = 0; c < 8; c++)
            grid[r][c] = in[r * 8 + c] + r - c;
    int sum = 0;
    __attribute__((opencl_unroll_hint(2)))
    for (int k = 0; k < 32; k++) // expect-loop: pipelined=true achieved_ii=1 trip_count=16
        sum += grid[k / 8][k % 8] * (k + 1);
    out[3] = sum;

    // The distance `d` is only known at run time: without a promise the loop must assume 1;
    // `safelen(4)` promises at least 4 (the run spec passes d = 4).
    int p[40], q[40];
    for (int i = 0; i < 40; i++) {
        p[i] = in[i];
        q[i] = in[i];
    }
    for (int i = d; i < 40; i++) // expect-loop: pipelined=true achieved_ii=3 rec_mii=3
        p[i] = p[i - d] * 3 + in[i];
    #pragma ivdep safelen(4)
    for (int i = d; i < 40; i++) // expect-loop: pipelined=true achieved_ii=1 rec_mii=1
        q[i] = q[i - d] * 3 + in[i];
    for (int i = 0; i < 40; i++)
        out[4 + i] = p[i] ^ q[i];
}
