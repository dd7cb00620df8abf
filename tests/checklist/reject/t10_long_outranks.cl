// expect: E0304
kernel void t10(global int4 *o) {
    int4 v = o[0]; long L = 5;
    o[3]  = v + L;          // REJECT: long outranks int
}
