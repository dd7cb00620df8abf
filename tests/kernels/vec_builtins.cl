// c-reference: no (OpenCL vector types and swizzles are not C)
// The integer built-ins on vectors, lane by lane, over edge values (0, -1, MIN, MAX, counts at
// and beyond the width, saturation bounds), with scalar arguments of min/max/clamp applied to
// every lane.
kernel void vec_builtins(global const int4 *a, global const int4 *b, global const uchar16 *u,
                         global const long2 *l, global int4 *o, global uchar16 *uo, global long2 *lo,
                         global short8 *so) {
    int4 x = a[0], y = b[0];
    o[0] = add_sat(x, y);
    o[1] = sub_sat(x, y);
    o[2] = hadd(x, y) ^ rhadd(x, y);
    o[3] = as_int4(abs(x)) + as_int4(abs_diff(x, y));
    o[4] = clz(x) + ctz(y) * 64 + popcount(x) * 4096;
    o[5] = rotate(x, y);
    o[6] = mul_hi(x, y);
    o[7] = mad_sat(x, y, (int4)(1, -1, 100, -100));
    o[8] = min(x, 5) + max(y, -5);
    o[9] = clamp(x, -1000, 1000);
    o[10] = clamp(x, y, y + 10);
    o[11] = select(x, y, x > y);
    o[12] = bitselect(x, y, (int4)(0x0f0f0f0f));
    o[13] = (int4)(any(x), all(x), any(y < 0), all(y.xy > (int2)(-3)));
    o[14] = mad24(x, (int4)(3), y) + mul24(y, (int4)(-2));
    uchar16 v = u[0], w = u[1];
    uo[0] = add_sat(v, w);
    uo[1] = sub_sat(v, w);
    uo[2] = rhadd(v, w);
    uo[3] = rotate(v, (uchar16)(9));
    uo[4] = max(v, (uchar)200);
    long2 p = l[0], q = l[1];
    lo[0] = mul_hi(p, q);
    lo[1] = add_sat(p, q);
    lo[2] = upsample(convert_int2(p), convert_uint2(q));
    lo[3] = clz(p) + popcount(q);
    so[0] = upsample(convert_char8(v.lo), convert_uchar8(w.hi));
    so[1] = abs_diff(convert_short8(v.even), convert_short8(w.odd)) > (ushort8)(100) ? (short8)(7) : (short8)(-7);
}
