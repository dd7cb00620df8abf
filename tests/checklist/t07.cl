// T07: convert_* saturation and rounding (checklist §5, the accepted lines).
// engines: emu sim cosim
// expect o = [-1, 0, 0, 2, -2, 0, 0, 2, -1, 0, 1, 3, -2, -1, 0, 2, 2147483647, -2147483648, 0, 1, -2, 0, 0, 2, 2147483647, -2147483648, 0, 1]
// expect ou = [0, 0, 300, 0]
// expect oc = [-1, 0, 127, -128]
// expect of = [16777216, 1, 2, 3, 16777218, 1, 2, 3]
kernel void t07(global int4 *o, global ushort4 *ou, global char4 *oc, global float4 *of) {
    float4 f = (float4)(-1.5f, -0.5f, 0.5f, 2.5f);
    o[0] = convert_int4(f);
    o[1] = convert_int4_rte(f);
    o[2] = convert_int4_rtp(f);
    o[3] = convert_int4_rtn(f);
    short4 s = (short4)(-1, 0, 300, -300);
    ou[0] = convert_ushort4_sat(s);
    oc[0] = convert_char4_sat(s);
    float4 big = (float4)(3.0e9f, -3.0e9f, NAN, 1.0f);
    o[4] = convert_int4_sat(big);
    o[5] = convert_int4_sat_rte(f);
    int4 i = (int4)(16777217, 1, 2, 3);
    of[0] = convert_float4(i);
    of[1] = convert_float4_rtp(i);
    o[6] = convert_int4(big);           // out of range without _sat: kiln saturates (README)
}
