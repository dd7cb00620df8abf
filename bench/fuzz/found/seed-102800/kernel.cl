// kiln fuzz: seed 102800
#pragma OPENCL FP_CONTRACT OFF
static short kiln_rem_short(short a, short b) { return (b == 0 || b == -1) ? a : (short)(a % b); }
static ulong kiln_div_ulong(ulong a, ulong b) { return (b == 0) ? a : (ulong)(a / b); }
__kernel void fuzz(__global const uchar *restrict in0, __global uint *restrict out1, __global int *restrict out2, uchar p0)
{
    char v1 = ((char)0);
    int a2[5] = {((int)~(((int)((uint)(((int)(in0[(((uint)(kiln_div_ulong(((ulong)0), ((ulong)(p0))))) % 8u)]))) + (uint)(((int)(in0[(((uint)(((uchar)(all(((((int2)(((int)0)))) == (((int2)(((int)(p0))))))))))) % 8u)])))))))};
    __attribute__((opencl_unroll_hint(1)))
    for (uint i3 = 0; i3 < 7 && (((ulong)0xffffffffffffffffUL)); i3++) {
        char v4 = ((char)(((uint)get_local_size(0))));
        out2[((uint)get_global_id(0)) * 8u + 4u + (((uint)(((uint)((uint)(((uint)(p0))) * (uint)(((uint)(v1))))))) % 4u)] = ((int)(((long)((((long)(i3))) & (((long)(a2[(((uint)(convert_char_sat((3e38f)))) % 5u)])))))));
        v4 = convert_char_sat(((float)(((ushort)(in0[(((uint)(min(((ushort)(p0)), ((ushort)(p0))))) % 8u)])))));
        v1 = ((char)-1);
    }
    short2 v5 = ((short2)(((short)-1)));
    ushort v6 = ((ushort)(all(((as_ulong4(as_ulong4((~(((ulong4)(((ulong)0)))))) << (as_ulong4(((ulong4)(((ulong)1)))) & (ulong4)63))) >= (as_ulong4(as_ulong4(((ulong4)(((ulong)1), ((ulong)(a2[(((uint)(((short)(((v1) > (((char)(p0)))))))) % 5u)])), ((ulong)(a2[(((uint)(((ushort)(v1)))) % 5u)])), ((ulong)(in0[(((uint)(((char)((uint)(((char)(((uint)get_local_size(0))))) + (uint)(((char)(((uint)get_local_id(0))))))))) % 8u)]))))) - as_ulong4(((ulong4)(((ulong)0))))))))));
    char a7[8] = {((char)(a2[(((uint)(((uchar)(any(((((ushort2)(((ushort)(p0)), ((ushort)0xffffUL)))) > (((ushort2)(v6, ((ushort)(v1))))))))))) % 5u)])), ((char)((uint)(((char)(in0[(((uint)(((ulong)(((uint)get_global_id(0)))))) % 8u)]))) * (uint)(((char)((a2[(((uint)(((int)(((short)13))))) % 5u)]) ? (((char)(in0[(((uint)(((short)0))) % 8u)]))) : (((char)3))))))), ((char)((isnan((fmax(((float)(v1)), (-104.34375f)) + 0.0f)) ? 2143289344 : as_int((fmax(((float)(v1)), (-104.34375f)) + 0.0f))))), ((char)((uint)(((char)((v1) | (v1)))) + (uint)(sub_sat(((char)(a2[(((uint)(((uint)((((uint)(v6))) & (((uint)(v1))))))) % 5u)])), ((char)(in0[(((uint)(((uint)get_global_size(0)))) % 8u)]))))))};
    v1 = ((char)((((char)(-(uint)(convert_char_sat(((float)(((long)(v1))))))))) ^ (((char)(all(((((int4)(((int)(in0[(((uint)(((ulong)(v6)))) % 8u)])), ((int)1), ((int)(a7[(((uint)(((int)((((char)(v6))) ? (((int)0xc8ee0c30UL)) : (((int)(v6))))))) % 8u)])), ((int)(v1))))) == (((((int4)(((int)0x237dd5d7UL)))) & (((int4)(((int)(((uint)get_local_id(0))))))))))))))));
    out1[((uint)get_global_id(0)) * 8u + 4u + (((uint)(rhadd(((char)(p0)), ((char)(((uint)get_global_size(0))))))) % 4u)] = ((uint)(((ulong)(((convert_ulong4(((short4)(((short)(a7[(((uint)(convert_long_sat(((float)(((long)(((uint)get_local_size(0))))))))) % 8u)])))))).s0) & (((ulong)((((((char2)(a7[(((uint)(((char)~(v1)))) % 8u)]))).s1) && (((uchar)(((uint)get_global_id(0)))))))))))));
    for (uint i8 = 0; i8 < 4 && (((short)((uint)(((short)((uint)(((short)(a2[(((uint)(((int)(((uint)get_local_size(0)))))) % 5u)]))) << ((((short)(p0))) & 15)))) * (uint)(kiln_rem_short(((short)(p0)), ((short)0)))))); i8++) {
        uint v9 = ((uint)(in0[(((uint)((((uchar3)(((uchar)(((uint)get_local_size(0))))))).s2)) % 8u)]));
        out2[((uint)get_global_id(0)) * 8u + 4u + (((uint)(((uint)(((v6) <= (v6)))))) % 4u)] = ((int)(((char)(i8))));
    }
    out1[((uint)get_global_id(0)) * 8u + 0u + (((uint)(((uint)0))) % 1u)] = ((uint)((uint)(((uint)((uint)(((uint)(v1))) * (uint)(((uint)31))))) + (uint)(((uint)(a7[(((uint)(((uint)1))) % 8u)])))));
    out2[((uint)get_global_id(0)) * 8u + 0u + (((uint)(((uint)0))) % 1u)] = ((int)((uint)(((int)((uint)(a2[(((uint)(((uint)0))) % 5u)]) * (uint)(((int)31))))) + (uint)(((int)(a7[(((uint)(((uint)2))) % 8u)])))));
    out1[((uint)get_global_id(0)) * 8u + 1u + (((uint)(((uint)0))) % 1u)] = ((uint)(a2[(((uint)(((uint)1))) % 5u)]));
    out2[((uint)get_global_id(0)) * 8u + 1u + (((uint)(((uint)0))) % 1u)] = a2[(((uint)(((uint)2))) % 5u)];
    out1[((uint)get_global_id(0)) * 8u + 2u + (((uint)(((uint)0))) % 1u)] = ((uint)((v5).s0));
    out2[((uint)get_global_id(0)) * 8u + 2u + (((uint)(((uint)0))) % 1u)] = ((int)((v5).s1));
    out1[((uint)get_global_id(0)) * 8u + 3u + (((uint)(((uint)0))) % 1u)] = ((uint)(v6));
    out2[((uint)get_global_id(0)) * 8u + 3u + (((uint)(((uint)0))) % 1u)] = ((int)(a7[(((uint)(((uint)0))) % 8u)]));
}
