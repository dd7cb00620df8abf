// Per-pixel alpha blend of two uchar4 images with a vector argument passed by value:
// out = (a * alpha + b * (255 - alpha) + 127) / 255 per channel, in 16-bit intermediates.
// c-reference: no (vector types)
kernel void alpha_blend(global const uchar4 *a, global const uchar4 *b, global uchar4 *out, uchar4 alpha) {
    size_t i = get_global_id(0);
    ushort4 wa = convert_ushort4(alpha);
    ushort4 x = convert_ushort4(a[i]) * wa + convert_ushort4(b[i]) * ((ushort4)(255) - wa) + (ushort4)(127);
    out[i] = convert_uchar4_sat(x / (ushort4)(255));
}
