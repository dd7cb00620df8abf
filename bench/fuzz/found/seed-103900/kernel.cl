// kiln fuzz: seed 103900
union R0 {
    long s;
    ulong u;
};
static ushort kiln_div_ushort(ushort a, ushort b) { return (b == 0) ? a : (ushort)(a / b); }
static ulong kiln_div_ulong(ulong a, ulong b) { return (b == 0) ? a : (ulong)(a / b); }
static long h1(short x0, uchar x1) {
    int t2 = ((((ushort)(x0))) < (((ushort)(x1))));
    long t3 = ((long)50);
    long t4 = ((long)0x7fffffffffffffffUL);
    return ((long)1);
}
__kernel void fuzz(__global const ushort *restrict in0, __global const short *restrict in1, __global ushort *restrict out2, __global uint *restrict out3, uchar p0, short p1, ushort p2)
{
    ushort v5 = ((ushort)(any(((((char4)(((char)(((((ulong)0xffffffffffffffffUL)) != (((ulong)(in1[(((uint)(((char)(((uint)get_global_id(0)))))) % 16u)])))))), ((char)(p0)), ((char)(in0[(((uint)(((int)((((ushort)(p0))) ? (((int)37)) : (((int)(((uint)get_global_id(0))))))))) % 32u)])), ((char)(p0))))) != (((char4)(((char)(all(((((uint3)(((uint)1)))) > (((uint3)(((uint)0xffffffffUL)))))))), ((char)110), ((char)(p1)), ((char)(in0[(((uint)(((uint)(-(uint)(((uint)(p2))))))) % 32u)])))))))));
    switch ((((uint)(((((long)(((uint)get_global_size(0))))) <= (((long)(-(ulong)(((long)(((uint)get_global_size(0))))))))))) % 4u)) {
    case 0: {
        v5 = abs(((ushort)(in1[(((uint)(((ushort)(((uint)get_global_size(0)))))) % 16u)])));
        out2[((uint)get_global_id(0)) * 8u + 4u + (((uint)(((ushort)((((ushort)(((uint)get_global_id(0))))) ^ (v5))))) % 4u)] = ((ushort)(((int)(p0))));
        long v6 = ((long)(v5));
        switch ((((uint)(((int)(p0)))) % 2u)) {
        case 0: {
            switch ((((uint)(((uchar)255))) % 4u)) {
            case 0: {
                union R0 r7 = {((long)(-(ulong)(((long)((((long)(p2))) & (((long)(p1))))))))};
            } break;
            case 1: {
            } break;
            case 2: {
            } break;
            default: {
            }
            }
        } break;
        default: {
        }
        }
    } break;
    case 1: {
    } break;
    case 2: {
    } break;
    default: {
    }
    }
    for (uint i8 = 0; i8 < 4 && (hadd(((short)(p0)), ((short)((uint)(in1[(((uint)(((ulong)((((ulong)(v5))) >> ((((ulong)(v5))) & 63))))) % 16u)]) << ((((short)(v5))) & 15))))); i8++) {
    }
    out2[((uint)get_global_id(0)) * 8u + 4u + (((uint)(((short)0x7598UL))) % 4u)] = ((ushort)(((ulong)((((long)((kiln_div_ulong(((ulong)(in0[(((uint)(p2)) % 32u)])), ((ulong)0xa0d182066364c667UL))) ? (((long)(in1[(((uint)(((ushort)((((ushort)1)) >> ((((ushort)(((uint)get_global_size(0))))) & 15))))) % 16u)]))) : (h1(((short)(((uint)get_global_size(0)))), ((uchar)(p1))))))) ? (((ulong)(v5))) : (mul_hi(((ulong)(((uint)get_global_size(0)))), ((ulong)(in0[(((uint)(((long)(((uint)get_global_id(0)))))) % 32u)]))))))));
    long8 v9 = ((((((((long8)(((long)(in1[(((uint)((((long8)(((long)(p2)), ((long)(p0)), ((long)-1), ((long)(v5)), ((long)(((uint)get_global_id(0)))), ((long)-1), ((long)(v5)), ((long)(v5))))).s3)) % 16u)])), ((long)(((uint)get_global_id(0)))), ((long)(p2)), ((long)(((uint)get_global_id(0)))), ((long)(p2)), ((long)(in1[(((uint)(((long)(p0)))) % 16u)])), ((long)(v5)), ((long)(v5))))) ^ (((long8)(((long)-1), ((long)(in0[(((uint)(((char)(v5)))) % 32u)])), ((long)(in1[(((uint)(((long)((((short)0)) ? (((long)(p2))) : (((long)0)))))) % 16u)])), ((long)21), ((long)(((uint)get_global_id(0)))), ((long)0x8000000000000000UL), ((long)(in1[(((uint)(((ulong)((((ulong)1)) | (((ulong)0xffffffffffffffffUL)))))) % 16u)])), ((long)(((uint)get_global_size(0))))))))) < ((~(((long8)(((long)(in0[(((uint)(((char)((uint)(((char)(p0))) - (uint)(((char)1)))))) % 32u)])), ((long)(in0[(((uint)(((short)(h1(((short)0x4f06UL), ((uchar)(p1))))))) % 32u)])), ((long)0x1bc57e41ccd876a8UL), ((long)(((uint)get_global_id(0)))), ((long)(v5)), ((long)(v5)), ((long)0xc2a9d60d559ac68dUL), ((long)(((uint)get_global_id(0))))))))))) < (((long8)(((long)(((uint)get_global_id(0))))))));
    v5 = kiln_div_ushort(((ushort)((uint)(in0[(((uint)(h1(((short)(((uint)get_global_id(0)))), ((uchar)(((uint)get_global_size(0))))))) % 32u)]) * (uint)(((ushort)(h1(((short)189), ((uchar)(in0[(((uint)(((int)1))) % 32u)])))))))), ((ushort)((uint)(((ushort)((p2) >> ((((ushort)(in1[(((uint)(((((short)(p2))) && (((long)-1))))) % 16u)]))) & 15)))) * (uint)(((ushort)(all(((((long4)(((long)128)))) != (((long4)(((long)(p1)), ((long)(in0[(((uint)(((short)(v5)))) % 32u)])), ((long)(p0)), ((long)(((uint)get_global_size(0)))))))))))))));
    out2[((uint)get_global_id(0)) * 8u + 0u + (((uint)(((uint)0))) % 1u)] = v5;
    out3[((uint)get_global_id(0)) * 8u + 0u + (((uint)(((uint)0))) % 1u)] = ((uint)((v9).s0));
    out2[((uint)get_global_id(0)) * 8u + 1u + (((uint)(((uint)0))) % 1u)] = ((ushort)((v9).s7));
}
