// expect: E0310
kernel void t06(global int8 *o) {
    float4 h = 0;
    int8  x3 = (int8)h;                              // REJECT
    o[0] = x3;
}
