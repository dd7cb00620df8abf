// expect: E0304
kernel void t10(global int4 *o) {
    int4 v = o[0];
    o[2]  = v + 0U;         // REJECT: uint outranks int
}
