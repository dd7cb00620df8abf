// T08: as_type, sizeof, vec_step (checklist §5; the union lines are in unsupported/t08_union.cl).
// engines: emu sim cosim
// expect o = [1065353216, 0, 0, 16, 4, 32, 1, 2]
// expect oi = [1065353216, 1073741824, 1077936128, 1082130432]
// expect of = [1, 0, 0, 4]
// expect g3 = [1, 2, 3, 0]
kernel void t08(global uint *o, global int4 *oi, global float4 *of, global float4 *g3) {
    o[0] = as_uint(1.0f);
    float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    oi[0] = as_int4(f);
    float4 g = (float4)(2.0f, 2.0f, 2.0f, 5.0f);
    int4 is_less = f < g;
    of[0] = as_float4(as_int4(f) & is_less);
    float3 h = as_float3(f);  g3[0] = (float4)(h, 0.0f);
    o[3] = sizeof(float3);  o[4] = vec_step(float3);  o[5] = sizeof(int8);
    // Implementation-defined: kiln is little-endian, so the low half is lane 0.
    int ii = 0x00020001; short2 j = as_short2(ii);
    o[6] = j.x; o[7] = j.y;
}
