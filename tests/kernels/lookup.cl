// Table lookups: a program-scope constant table, a private ROM and a __constant buffer argument.
constant uchar sbox[16] = {12, 5, 6, 11, 9, 0, 10, 13, 3, 14, 15, 8, 4, 7, 1, 2};
kernel void lookup(global const uchar *in, constant int *weights, global int *out, int n) {
    const int scale[4] = {1, 10, 100, 1000};
    for (int i = 0; i < n; i++) {
        uchar hi = sbox[in[i] >> 4], lo = sbox[in[i] & 15];
        out[i] = (hi << 4 | lo) * scale[i & 3] + weights[i % 5];
    }
}
