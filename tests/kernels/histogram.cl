// 16-bin histogram of bytes: a private array of counters, then written out.
kernel void histogram(global const uchar *pixels, global uint *hist, int n) {
    uint bins[16];
    for (int b = 0; b < 16; b++)
        bins[b] = 0;
    for (int i = 0; i < n; i++) // expect-loop: pipelined=true rec_mii=2 achieved_ii=2
        bins[pixels[i] >> 4]++;
    for (int b = 0; b < 16; b++)
        hist[b] = bins[b];
}
