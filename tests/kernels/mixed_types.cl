// Usual arithmetic conversions across char, short, int, long and their unsigned variants.
kernel void mixed_types(global const char *c, global const ushort *us, global const uint *ui, global long *out, int n) {
    for (int i = 0; i < n; i++) {
        long r = 0;
        r += c[i] * us[i];                  // int
        r += (ui[i] > c[i]) ? 1 : 0;         // unsigned comparison: c converts to uint
        r += ui[i] + (long)c[i];             // long
        r += (ulong)ui[i] * 3u >> 1;         // ulong
        r -= (short)(us[i] ^ 0x8000);        // sign change through short
        r += (uchar)(c[i] + 200);
        out[i] = r;
    }
}
