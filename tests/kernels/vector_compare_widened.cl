// A vector comparison whose lanes (-1 or 0) are sign-extended to 64 bits, after a loop: the
// sign extension of a negated zero extension, which Verilator 5.006 miscomputed when kiln wrote
// it as a replication (`{32{m[31]}}`); reduced from fuzz seed 103900 (`bench/fuzz/found/`).
// c-reference: no (vectors)
__kernel void vector_compare_widened(__global const short *restrict in1, __global ushort *restrict out2, uchar p0, short p1)
{
    ushort v5 = (ushort)(p0 & 1);
    for (uint i = 0; i < 4 && hadd((short)p0, (short)((uint)in1[(uint)((ulong)v5 >> ((ulong)v5 & 63)) % 16u] << ((short)v5 & 15))); i++) { }
    out2[0] = all((long4)128 != (long4)((long)p1, 5l, (long)p0, 1l));
    out2[1] = any((long2)249 == (long2)((long)p0, (long)p1));
}
