// A loop whose every iteration reads three rows of an on-chip array: kiln unrolls it by 4
// without a pragma (docs/loops.md) so that `partition` gives the copies' reads their own banks
// — II 3 per 4 elements instead of 3 per element. The loop that writes to a buffer is left
// alone: its copies would share the buffer's port.
kernel void bank_unroll(global const int *in, global int *out, int n) {
    int img[6][24];
    int next[6][24];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 24; j++)
            img[i][j] = in[(i * 24 + j) % n] ^ i;
    for (int i = 1; i < 5; i++) {
        next[i][0] = 0;
        for (int j = 0; j < 24; j++) // expect-loop: achieved_ii=3
            next[i][j] = img[i - 1][j] + 2 * img[i][j] - img[i + 1][j];
    }
    for (int i = 1; i < 5; i++) {
        out[1 + 96 + i] = i;
        for (int j = 0; j < 24; j++) // expect-loop: achieved_ii=3
            out[1 + (i - 1) * 24 + j] = img[i - 1][j] - img[i + 1][j] + img[i][j];
    }
    int s = 0;
    for (int i = 1; i < 5; i++)
        for (int j = 0; j < 24; j++)
            s += next[i][j] * (j + 1);
    out[0] = s;
}
