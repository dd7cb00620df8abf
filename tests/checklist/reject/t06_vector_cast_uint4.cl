// expect: E0310
kernel void t06(global uint4 *o) {
    int4 i = 0;
    uint4 x1 = (uint4)i;                             // REJECT: vector to vector cast
    o[0] = x1;
}
