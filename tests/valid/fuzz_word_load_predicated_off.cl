// Reduced from a random differential test (issue 59): a wide-port word load whose predicate folds
// to false; its lanes must fold to 0 with it (once an internal error of const-fold: word_lane).
__kernel void fuzz(__global const int *in0,
                __global const uint *in1,
                __global const short *in2,
                __global const uchar *in3,
                __global short *out2,
                uint p1)
{
    uint v0 = (uint)((long)(0UL - (ulong)((long)(in3[0] / (in3[(((long)(-128)) & 63)] != 0 ? in3[(((long)(-128)) & 63)] : 1)))));
    bool v1 = (v0 ^ v0) * (in1[3] << 22);
    short v2 = v0;
    char v3 = v1 / 32;
    ushort a0[4];
    uint a1[6];
    for (int j1 = 0; j1 < 6; j1++)
        a1[j1] = (int)((uint)(a0[(((uint)(!v2)) < 4u ? ((uint)(!v2)) : 3u)] + a0[2]) << (0x4000000000001UL & 31));
    uchar a2[6] = {((uchar)1)};
    if ((v0 ^ in2[(v3 & 31)]) <= 0xFFFFFFFBu) {
        if (((a1[5] / (p1 != 0 ? p1 : 1)) & 4) != 0) {
        }
        for (int i1 = 0; i1 < 9; ++i1) {
            v1 = (bool)9223372036854775807L;
            if (p1 > (i1 | 472408694)) {
            }
        }
    }
    for (uint i2 = 25; i2 > 0; i2--) {
        if (((v1 & (-13812886)) & 1) != 0) {
            a0[(((uint)(out2[0] >= v0)) < 4u ? ((uint)(out2[0] >= v0)) : 3u)] = ((in1[26] - a0[((uint)(a2[(((uint)v0) < 6u ? ((uint)v0) : 5u)] & v1) % 4u)]) - (v2 < v0)) < 0xFFFFFFF0u;
        }
    }
}
