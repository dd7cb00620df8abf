// expect: E0330
kernel void t07(global int4 *o) {
    float3 f3 = 0; int4 bad2 = convert_int4(f3);         // REJECT: element counts differ
    o[0] = bad2;
}
