// expect: E0417
kernel void t02(global float *o) {
    float2 pos;  pos.z = 1.0f;                // REJECT: no z in float2
    o[0] = pos.x;
}
