// expect: E0417
kernel void t02(global float *o) {
    float3 p3;   p3.w = 1.0f;                 // REJECT: no w in float3
    o[0] = p3.x;
}
