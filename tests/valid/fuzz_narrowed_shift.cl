// Reduced from a random differential test (issue 59): a value the range analysis narrows, shifted
// by a variable count, once an internal error ("shifts a 5-bit value by a variable count").
uint f0(uint q0, uchar q1)
{
}
int f1(ulong q0, long q1, uint q2, __global const int *g)
{
}
__kernel void fuzz(__global const int *in0,
                __global const short *in2,
                int p0,
                uint p1)
{
    char v0 = (char)(in0[((0x7FFFFFFFFFFFFFFFUL + in2[(((short)(-1)) & 31)]) & 63)] < in0[5]);
    long v1 = (long)(-(p1 << (v0 & 3)));
    long a0[6];
    for (int j0 = 0; j0 < 6; j0++)
        a0[j0] = v1 != 0 ? (v0 / v1) : v0;
    uint a1[6] = {0xFFFFFFFEu, 32u, 4u, 0u, 4u, 15u};
    int v2 = v1 <= (-16L);
    if (f1((ulong)in2[((uint)((uint)in0[((uint)p0 % 64u)]) % 32u)], a0[((uint)v0 % 6u)], (uint)v2, in0) <= (a1[3] ? (in2[0] / a1[3]) : in2[0])) {
        for (uint i0 = 0; i0 < 12; i0 += 3) {
            a1[(int)((ulong)v1 % 6UL)] = ((ushort)(i0 - 31u)) & ((31UL >> (v0 & 15)) >> (a0[4] & 63));
        }
    }
}
