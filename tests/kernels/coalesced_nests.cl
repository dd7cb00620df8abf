// flags: --target ice40-up5k --clock-mhz 60
// Imperfect nests coalesced into one pipelined loop. The first is doitgen's inner product:
// `C4[s][p]` comes through one port a word a cycle whether the `s` loop is unrolled or not, so
// kiln coalesces the nest instead of unrolling `s` (one multiplier instead of two and the
// twelve operands they wait for); the store after the `s` loop runs in an iteration of its
// own and reads `acc` from its register. The second asks for coalescing with a pragma, over a
// longer inner loop, with declarations before it and branching statements after it.
#define NP 12
kernel void coalesced_nests(global const int *a, global const int *c, global int *out) {
    int A[NP], C4[NP][NP], sum[NP];
    for (int i = 0; i < NP; i++)
        A[i] = a[i];
    for (int i = 0; i < NP * NP; i++)
        C4[i / NP][i % NP] = c[i];
    for (int p = 0; p < NP; p++) { // expect-loop: pipelined=true achieved_ii=1 trip_count=156
        int acc = 0;
        for (int s = 0; s < NP; s++)
            acc += A[s] * C4[s][p];
        sum[p] = acc;
    }
    for (int p = 0; p < NP; p++)
        out[p] = sum[p] ^ (p << 4);

    int grand = 0;
    #pragma loop_coalesce
    for (int i = 0; i < 5; i++) { // expect-loop: pipelined=true achieved_ii=1 trip_count=105
        int t = 5;
        for (int j = 0; j < 20; j++)
            t += a[j % NP] ^ (j + i);
        int u = t >> 1;
        if (t & 1)
            grand ^= u;
        out[NP + i] = u;
    }
    out[NP + 5] = grand;
}
