// expect: E0330 E0330 E0330 E0330 E0307
kernel void k(global int *o, uint u, int i, char c, long l) {
    o[0] = min(u, i);
    o[1] = mul24(l, l);
    o[2] = upsample(l, l);
    o[3] = select(i, i, c);
    o[4] = popcount(i, i);
}
kernel void k2(global int *o, int i, short s) { o[0] = min(i, s); }
