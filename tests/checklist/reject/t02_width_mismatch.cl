// expect: E0303
kernel void t02(global float4 *o) {
    float4 p4 = 0;
    p4.xy = (float4)(1.0f, 2.0f, 3.0f, 4.0f); // REJECT: float4 assigned to a 2-component swizzle
    o[0] = p4;
}
