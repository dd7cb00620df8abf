// expect: E0303
kernel void t02(global float *o) {
    float4 f = (float4)(1.0f, 2.0f);          // REJECT: 2 elements for float4
    o[0] = f.x;
}
