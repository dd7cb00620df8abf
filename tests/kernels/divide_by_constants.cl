// Division and remainder by constants over the whole 32-bit range: kiln divides by a constant
// with a multiply by its reciprocal (Granlund-Montgomery), a 32 x 32 -> 64-bit product whose
// high half is the quotient. On the iCE40 at 60 MHz that product is summed a 16-bit digit per
// cycle (tests/hardware.rs cosimulates this kernel there); random words and the edge values
// cover the carries between the digits.
constant uint edges[12] = {0u, 1u, 8u, 9u, 65535u, 65536u, 999999u, 1000003u,
                           0x7fffffffu, 0x80000000u, 0xfffffff7u, 0xffffffffu};

kernel void divide_by_constants(global const uint *a, global uint *out, int n) {
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=true
        uint x = a[i];
        int y = (int)x;
        out[4 * i + 0] = x / 9u;
        out[4 * i + 1] = x % 1000003u;
        out[4 * i + 2] = (uint)(y / 7);
        out[4 * i + 3] = (uint)(y % -13) ^ (x / 0xfffffff1u);
    }
    for (int i = 0; i < 12; i++) { // expect-loop: pipelined=true
        uint x = edges[i];
        out[4 * n + 2 * i] = x / 3u + x / 1000003u;
        out[4 * n + 2 * i + 1] = (uint)((int)x / -9) + x % 65521u;
    }
}
