// c-reference: no (OpenCL vector types and swizzles are not C)
// Vectors of every width and element type: lane-wise arithmetic with wrap-around, comparisons
// giving -1/0, swizzles as values and as assignment targets, .lo/.hi/.even/.odd, 3-element
// vectors in memory (padded to 4 lanes), vload3/vstore3 (not padded), as_ reinterpretation.
kernel void vec_widths(global const int3 *p3, global int *q, global char2 *c2, global short8 *s8,
                       global long *l, global uchar16 *u16, global uint *out) {
    int3 a = p3[0];
    int3 b = p3[1];
    int3 m = a * b + (int3)(1, 2, 3);
    m.zx = m.xz;                                   // swap two lanes
    out[0] = m.x; out[1] = m.y; out[2] = m.z;
    int3 v = vload3(1, q);                         // q[3..5]
    vstore3(v.zyx * 2, 0, q);                      // q[0..2]
    int4 wide = (int4)(a, 9);
    out[3] = wide.w + wide.hi.x;

    char2 c = c2[0];
    c2[1] = c + (char2)(120, -120);                // wraps around in 8 bits
    c2[2] = c > (char)0;                           // -1 / 0 per lane

    short8 s = s8[0];
    s.s7531 = (short4)(-1);
    s8[1] = (short8)(s.even * (short4)(2) == s.odd, s.lo > s.hi) ? s : (short8)(s.lo, s.hi.wzyx);
    s8[2] = ~s >> (short8)(1, 2, 3, 4, 5, 6, 7, 17);

    long16 big = vload16(0, l);
    long16 r = big * 3 - (big >> 2);
    r.sf = big.s0 + big.sF;
    vstore16(r, 1, l);

    uchar16 u = u16[0];
    u16[1] = u + u.sfedcba9876543210;
    u16[2] = (uchar16)(u.s0123, u.hi.lo, (uchar8)(7));
    out[4] = as_uint(u.lo.lo);
    out[5] = as_uint((short2)(-2, 3));
    int4 fromc = as_int4(u);
    out[6] = fromc.z;
    ulong2 ul = as_ulong2(u);
    out[7] = (uint)(ul.y >> 28);
    out[8] = vec_step(int3) + vec_step(s) * 10;
    out[9] = sizeof(int3) + sizeof(char2) * 100;
}
