// expect: E0330
kernel void t08(global int *o) {
    char c = 1; int bad = as_int(c);                          // REJECT: 1 byte vs 4 bytes
    o[0] = bad;
}
