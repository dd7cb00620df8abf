// shuffle and shuffle2 with constant masks (pure wiring) and with masks read from memory
// (multiplexers), on several widths and element types; mask lanes beyond the source's lanes
// keep only their low bits (OpenCL C 3.0 §6.15.14).
// c-reference: no (vector built-ins)
kernel void vec_shuffle(global const int4 *a, global const int4 *b, global const uint8 *masks,
                        global int8 *wide, global int2 *narrow, global uchar16 *bytes,
                        global ushort4 *halves, int n) {
    for (int i = 0; i < n; i++) {
        int4 x = a[i];
        int4 y = b[i];
        uint8 m = masks[i];
        wide[2 * i] = shuffle(x, m);
        wide[2 * i + 1] = shuffle2(x, y, m);
        narrow[i] = shuffle(x, (uint2)(3, 0)) + shuffle2(x, y, (uint2)(6, 13));
        uchar16 px = as_uchar16(x);
        bytes[i] = shuffle(px, (uchar16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
        ushort8 h = as_ushort8(y);
        halves[i] = shuffle2(h, h.s76543210, convert_ushort4(m.lo) + (ushort4)(0, 8, 16, 24));
    }
}
