// expect: E0417
kernel void t04(global float4 *o) {
    float4 f = (float4)(10.0f, 11.0f, 12.0f, 13.0f), a;
    a = f.x12w;                            // REJECT: mixing numeric indices with .xyzw
    o[0] = a;
}
