// Indices on a few bits: the e-graph phase narrows `j` to 6 bits and may compute `j - 1` as
// `j + 63` (wrapping on purpose); the pipeline's dependence analysis must still see that
// A[j - 1] was written by the previous iteration, and that A[j + 24] is a later element.
kernel void narrow_indices(global int *out) {
    int A[64];
    for (int j = 0; j < 64; j++)
        A[j] = j * 3 + 1;
    for (int t = 0; t < 3; t++)
        for (int j = 1; j < 40; j++) // expect-loop: rec_mii=2
            A[j] = A[j - 1] + (A[j] ^ t);
    for (int j = 0; j < 40; j++) // expect-loop: achieved_ii=1
        A[j] = A[j + 24] - j;
    int acc = 0;
    for (int j = 0; j < 64; j++)
        acc = acc * 31 + A[j];
    out[0] = acc;
}
