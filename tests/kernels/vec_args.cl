// Vector kernel arguments passed by value, of several widths and element types (a 3-lane
// vector, a 16-lane one, signed and unsigned, 64-bit): each lane is its own scalar input of
// the hardware, given in the run spec as an array of lanes.
// c-reference: no (vector types)
kernel void vec_args(global int4 *out, global long *wide, int4 offset, uchar3 color,
                     short16 weights, ulong2 big, int n) {
    for (int i = 0; i < n; i++)
        out[i] = offset * i + convert_int4((uchar4)(color, 1)) + convert_int4(weights.s0123 * weights.sCDEF);
    wide[0] = big.x + big.y;
    wide[1] = (long)weights.s7 * weights.s8;
    wide[2] = any(offset < 0) + all(color.xy > (uchar2)(10));
}
