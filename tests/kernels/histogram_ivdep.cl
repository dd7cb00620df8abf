// Histogram with `#pragma ivdep`: the user promises that no two iterations closer than the
// pipeline's reach update the same bin, so the read-modify-write of `bins[]` is not a
// loop-carried recurrence and the loop starts one pixel per cycle. The run spec's pixels cycle
// through all 16 bins, keeping the promise.
kernel void histogram_ivdep(global const uchar *pixels, global uint *hist, int n) {
    uint bins[16];
    for (int b = 0; b < 16; b++)
        bins[b] = 0;
    #pragma ivdep
    for (int i = 0; i < n; i++) // expect-loop: pipelined=true achieved_ii=1 rec_mii=1
        bins[pixels[i] >> 4] += 1;
    for (int b = 0; b < 16; b++)
        hist[b] = bins[b];
}
