// expect: E0303
kernel void t09(global int2 *o) {
    int2 bad = (ulong2)(0, 0) > (ulong2)(0, 0);     // REJECT: the result is long2, no implicit vector conversion
    o[0] = bad;
}
