// Differences from constants, which the iCE40 at 60 MHz splits over cycles: a 32-bit negation
// and `c - x` in two 16-bit segments, 64-bit ones in more. rtl-gen computes `c - x` as
// `~(~c + x)` so that no inverting LUT stands in front of the carry chain; tests/hardware.rs
// checks the results on the edges of every segment.
kernel void differences(global const int *a, global const long *b, global int *out, global long *wide, int n) {
    for (int i = 0; i < n; i++) {
        int x = a[i];
        out[3 * i] = -x;
        out[3 * i + 1] = 1000 - x;
        out[3 * i + 2] = (int)(0x80000000u - (uint)x);
        long y = b[i];
        wide[2 * i] = -y;
        wide[2 * i + 1] = 77 - y;
    }
}
