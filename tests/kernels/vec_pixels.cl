// c-reference: no (OpenCL vector types and swizzles are not C)
// RGBA pixel math on uchar4 in an NDRange kernel: brightness/contrast with saturating
// conversions, a grey level, and a BGRA swap, one work-item per pixel.
kernel void vec_pixels(global const uchar4 *in, global uchar4 *out, global uchar *grey, global uchar4 *swapped,
                       int gain, int offset) {
    size_t i = get_global_id(0);
    uchar4 p = in[i];
    int4 wide = convert_int4(p);
    int4 scaled = (wide * gain) / 16 + offset;
    out[i] = convert_uchar4_sat(scaled);
    ushort4 w = convert_ushort4(p);
    ushort y = (ushort)((w.x * 77 + w.y * 150 + w.z * 29) >> 8);
    grey[i] = convert_uchar_sat(y);
    uchar4 bgra = p.zyxw;
    bgra.w = convert_uchar_sat_rte(convert_short(p.w) - 300);
    swapped[i] = select(bgra, (uchar4)(255), convert_char4(p) < (char4)(0));
}
