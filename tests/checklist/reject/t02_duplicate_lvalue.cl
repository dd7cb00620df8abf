// expect: E0305
kernel void t02(global float4 *o) {
    float4 p4 = 0; p4.xx = (float2)(3.0f, 4.0f);  // REJECT: duplicate component in an l-value
    o[0] = p4;
}
