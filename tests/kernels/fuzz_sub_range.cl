// A kernel of kiln fuzz (seed 241405): the e-graph phase computed the range of a subtraction
// from an operand whose range was empty (lo above hi), which overflowed and panicked.
// c-reference: no (kiln fuzz compares it with gcc through its own C printer)
#pragma OPENCL FP_CONTRACT OFF
static char kiln_rem_char(char a, char b) { return (b == 0 || b == -1) ? a : (char)(a % b); }
static int kiln_rem_int(int a, int b) { return (b == 0 || b == -1) ? a : (int)(a % b); }
static uint kiln_div_uint(uint a, uint b) { return (b == 0) ? a : (uint)(a / b); }
static uchar h1(char x0, ushort x1) {
    long t2 = ((long)(x0));
    return ((uchar)3);
}
__kernel void fuzz(__global const uint *restrict in0, __global const uint *restrict in1, __global const long *restrict in2, __global ulong *restrict out3)
{
    int v3 = ((int)((((long)((((long)(in0[(((uint)(((uchar)((((uchar)89)) & (((uchar)0)))))) % 8u)]))) ^ (((long)(((((long)(in1[(((uint)(hadd(((short)(((uint)get_global_size(0)))), ((short)1)))) % 4u)]))) || (((short)(in2[(((uint)(kiln_div_uint(((uint)0xffffffffUL), ((uint)1)))) % 4u)])))))))))) ? (((int)0)) : (((int)(((uint)get_global_id(0)))))));
    v3 = ((int)(in0[(((uint)(((ushort)(v3)))) % 8u)]));
    float v4 = ((float)(((uint)get_global_size(0))));
    short v5 = convert_short_sat(v4);
    for (int i6 = 0; i6 < 6; i6++) {
        long v7 = ((long)(i6));
        out3[((uint)get_global_id(0)) * 8u + 4u + (((uint)(((char)((uint)(((char)85)) << ((((char)(((uint)get_global_size(0))))) & 7))))) % 4u)] = ((ulong)(mul_hi(((uchar)((((uchar)((uint)(((uchar)(i6))) << ((((uchar)(in2[(((uint)(((uchar)(((uint)get_global_id(0)))))) % 4u)]))) & 7)))) & (h1(((char)23), ((ushort)117))))), ((uchar)0))));
        v3 = ((int)(h1(((char)(((uint)get_global_id(0)))), clz(((ushort)(-(uint)(((ushort)(in2[(((uint)(((ulong)47))) % 4u)])))))))));
    }
    char v8 = ((char)((((char)(in2[(((uint)(popcount(v5))) % 4u)]))) & (((char)(((uint)get_global_size(0)))))));
    out3[((uint)get_global_id(0)) * 8u + 4u + (((uint)(max(v3, ((int)1)))) % 4u)] = ((ulong)(((uchar)(in1[(((uint)(((ushort)(v3)))) % 4u)]))));
    char v9 = ((char)(((clz(((ulong)(in0[(((uint)(((uchar)(((uint)get_global_size(0)))))) % 8u)])))) || (rhadd(((ulong)(((((ushort)(((uint)get_global_id(0))))) || (((char)(in2[(((uint)(((short)((((short)(((uint)get_global_size(0))))) | (((short)(((uint)get_global_id(0))))))))) % 4u)])))))), ((ulong)(((int)(((uint)get_global_id(0)))))))))));
    if (((long)(((uint)get_global_size(0))))) {
        v5 = ((short)0x1da4UL);
        float v10 = (0.0f);
        v8 = ((char)((uint)(kiln_rem_char(((char)(abs_diff(((char)(v5)), ((char)115)))), ((char)(in1[(((uint)(v3)) % 4u)])))) - (uint)(rhadd(((char)76), ((char)(in2[(((uint)(((short)((uint)(((short)(v3))) - (uint)(((short)0x7fffUL)))))) % 4u)]))))));
    } else {
        float v11 = (((-99.0625f)) * (copysign(((((float)(((long)(in1[(((uint)(add_sat(((long)(((uint)get_global_size(0)))), ((long)(((uint)get_global_size(0))))))) % 4u)]))))) * ((0.5f))), (3e38f))));
    }
    uint v12 = abs_diff(((int)((((ulong)(in1[(((uint)(((char)(((long)(v8)))))) % 4u)]))) ? (((int)((((int)0x80000000UL)) & (((int)(in2[(((uint)(kiln_rem_int(((int)165), ((int)(v8))))) % 4u)])))))) : (((((uchar)0)) || (((uchar)(in0[(((uint)(((long)0x8bf1282a64082da8UL))) % 8u)]))))))), v3);
    out3[((uint)get_global_id(0)) * 8u + 0u + (((uint)(((uint)0))) % 1u)] = ((ulong)((ulong)(((ulong)((ulong)(((ulong)(v3))) * (ulong)(((ulong)31))))) + (ulong)(((ulong)(v9)))));
    out3[((uint)get_global_id(0)) * 8u + 1u + (((uint)(((uint)0))) % 1u)] = ((ulong)((ulong)(((ulong)((ulong)(((ulong)((isnan(v4) ? 2143289344 : as_int(v4))))) * (ulong)(((ulong)31))))) + (ulong)(((ulong)(v12)))));
    out3[((uint)get_global_id(0)) * 8u + 2u + (((uint)(((uint)0))) % 1u)] = ((ulong)(v5));
    out3[((uint)get_global_id(0)) * 8u + 3u + (((uint)(((uint)0))) % 1u)] = ((ulong)(v8));
}
