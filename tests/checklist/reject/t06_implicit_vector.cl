// expect: E0303
kernel void t06(global uint4 *o) {
    int4 i = 0;
    uint4 x4 = i;                                    // REJECT: implicit vector to vector conversion
    o[0] = x4;
}
