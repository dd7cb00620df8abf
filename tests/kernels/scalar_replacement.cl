// Array elements a loop uses at an unchanging index, in the shapes scalar replacement must get
// right: a pointer parameter's element, loops that may not run at all, conditional writes and
// `break`, counting down, `while` and `do`, and elements another access may reach (which must
// stay in memory).
kernel void scalar_replacement(global const int *in, global int *out, global int *hist, int n) {
    int tri[8][8];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            tri[i][j] = in[(i * 8 + j) % n] + i - j;

    // An element of a pointer parameter, summed over a trip count known only at run time.
    for (int i = 0; i < 8; i++) {
        out[i] = 0;
        for (int k = 0; k < n; k++) // expect-loop: achieved_ii=1
            out[i] += in[k] * (i + 1);
    }
    // A triangular loop that does not run for i == 0; `tri[i][j]` with `tri[i][k]` (k < j)
    // and `tri[k][j]` (k < j < i) by its side.
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                tri[i][j] -= tri[i][k] * tri[k][j];
            tri[i][j] += 1;
        }
    // Conditional writes and an early exit.
    for (int i = 0; i < 8; i++) {
        for (int k = 0; k < 16; k++) {
            if (in[k % n] > 40)
                break;
            if (in[k % n] & 1)
                tri[i][0] += in[k % n];
            else
                tri[i][0] ^= k;
        }
    }
    // Counting down, with `tri[r][c]` apart from `tri[r][m]` (m > c).
    for (int r = 7; r >= 0; r--)
        for (int c = 6; c >= 0; c--)
            for (int m = 7; m > c; m--) // expect-loop: achieved_ii=1
                tri[r][c] += tri[r][m] >> 2;
    // `while` and `do`: the counter is not a counted loop's, the element still stays put.
    int w = 0;
    while (w < n) {
        hist[w & 3] = 0;
        w++;
    }
    int d = 0;
    do {
        hist[4] += in[d % n];
        d += 3;
    } while (d < 20);
    // `tri[i][1]` and `tri[i][j]` meet when j == 1: both stay in memory.
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            tri[i][j] += tri[i][1];
    // `tri[i][2]` read while `tri[i][j]` is assigned: kept in a register that the write with
    // j == 2 updates, so the later iterations read the new value.
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            tri[i][j] = tri[i][j] * 3 + tri[i][2];
    // `hist[5]` read while `hist[t]` is written for t up to n: stays in memory.
    hist[5] = 1;
    for (int t = 5; t < 5 + (n & 3); t++)
        hist[t] = hist[5] + t;

    // The condition reads `in[5]` (42 in the run spec) before the body, which never runs: the
    // element's register must be loaded although the loop is not entered.
    int runs = 0;
    for (int k = 0; in[5] < 10 && k < 4; k++)
        runs += in[k] + 1;
    hist[6] = runs;

    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            out[8 + i * 8 + j] = tri[i][j];
}
