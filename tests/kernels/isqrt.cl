// Integer square root, bit by bit, for 32-bit unsigned values.
uint isqrt(uint x) {
    uint res = 0;
    uint bit = 1u << 30;
    while (bit > x)
        bit >>= 2;
    while (bit != 0) {
        if (x >= res + bit) {
            x -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return res;
}
kernel void isqrt_all(global const uint *x, global uint *r, int n) {
    for (int i = 0; i < n; i++)
        r[i] = isqrt(x[i]);
}
