// expect: E0310
kernel void t06(global int4 *o) {
    float4 h = 0;
    int4  x2 = (int4)h;                              // REJECT
    o[0] = x2;
}
