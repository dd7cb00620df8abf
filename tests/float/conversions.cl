// Conversions between float and integers with every rounding mode, saturation (NaN gives 0),
// and as_type reinterpretation. (A NaN or out-of-range value without `_sat` is implementation-defined,
// so only the `_sat` forms see one.)
kernel void conversions(global const float *x, global const int *big, global int *r, global float *f,
                        global uchar *sat) {
    int i = get_global_id(0);
    float v = x[i];
    r[i * 6 + 0] = convert_int_rte(v);
    r[i * 6 + 1] = convert_int_rtz(v);
    r[i * 6 + 2] = convert_int_rtp(v);
    r[i * 6 + 3] = convert_int_rtn(v);
    r[i * 6 + 4] = (int)v;
    r[i * 6 + 5] = as_int(v) ^ as_int(-v);
    int b = big[i];
    f[i * 5 + 0] = convert_float(b);
    f[i * 5 + 1] = convert_float_rtz(b);
    f[i * 5 + 2] = convert_float_rtp(b);
    f[i * 5 + 3] = convert_float_rtn(b);
    f[i * 5 + 4] = convert_float((uint)b);
    sat[i * 2 + 0] = convert_uchar_sat(v * 10.0f);
    sat[i * 2 + 1] = convert_uchar_sat_rte(v + 127.5f);
    r[48 + i] = convert_int_sat(v * 4.0f) + convert_int_sat(v * 0.0f / 0.0f);
}
