// expect: E0330
kernel void t07(global float4 *o) {
    int4 i = (int4)(16777217, 1, 2, 3);
    float4 bad1 = convert_float4_sat(i);             // REJECT: _sat not allowed for float destinations
    o[0] = bad1;
}
