// Every integer conversion built-in: convert_T(x) and convert_T_sat(x) from every integer type
// to every integer type, over edge values (0, ±1, the extremes of every width, single bits,
// random words, each truncated to the source type), and the rounding-mode spellings, which
// change nothing for integers. PoCL checks every value.
// c-reference: no (OpenCL conversion built-ins)
#define TO_ALL(x)                                                                    \
    out[k++] = convert_char(x);   out[k++] = convert_char_sat(x);                    \
    out[k++] = convert_uchar(x);  out[k++] = convert_uchar_sat(x);                   \
    out[k++] = convert_short(x);  out[k++] = convert_short_sat(x);                   \
    out[k++] = convert_ushort(x); out[k++] = convert_ushort_sat(x);                  \
    out[k++] = convert_int(x);    out[k++] = convert_int_sat(x);                     \
    out[k++] = convert_uint(x);   out[k++] = convert_uint_sat(x);                    \
    out[k++] = convert_long(x);   out[k++] = convert_long_sat(x);                    \
    out[k++] = as_long(convert_ulong(x)); out[k++] = as_long(convert_ulong_sat(x));

kernel void conversions(global const long *v, global long *out) {
    int k = 0;
    // One value at a time: a pipeline would carry 129 results through its stages for nothing.
    #pragma disable_loop_pipelining
    for (int i = 0; i < 16; i++) {
        long a = v[i];
        TO_ALL((char)a)
        TO_ALL((uchar)a)
        TO_ALL((short)a)
        TO_ALL((ushort)a)
        TO_ALL((int)a)
        TO_ALL((uint)a)
        TO_ALL(a)
        TO_ALL((ulong)a)
        out[k++] = convert_int_sat_rte(a) + convert_short_rtz((int)a) + convert_uchar_sat_rtp((short)a)
                 + convert_char_rtn((uint)a);
    }
}
