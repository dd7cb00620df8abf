// Byte swap and bit reversal of 32-bit words with shifts and masks.
uint bswap(uint x) {
    return (x >> 24) | ((x >> 8) & 0xFF00u) | ((x << 8) & 0xFF0000u) | (x << 24);
}
uint bitrev(uint x) {
    uint r = 0;
    for (int i = 0; i < 32; i++) {
        r = (r << 1) | (x & 1u);
        x >>= 1;
    }
    return r;
}
kernel void byteswap(global uint *w, global uint *rev, int n) {
    for (int i = 0; i < n; i++) {
        rev[i] = bitrev(w[i]);
        w[i] = bswap(w[i]);
    }
}
