// Population count and parity with bit tricks (no built-ins).
uint popcnt(uint x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
}
kernel void bitcount(global const uint *in, global uint *pop, global uint *parity, int n) {
    for (int i = 0; i < n; i++) {
        uint p = popcnt(in[i]);
        pop[i] = p;
        uint x = in[i];
        x ^= x >> 16;
        x ^= x >> 8;
        x ^= x >> 4;
        x ^= x >> 2;
        x ^= x >> 1;
        parity[i] = (x & 1) == (p & 1);
    }
}
