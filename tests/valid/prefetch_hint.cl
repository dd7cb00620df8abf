// valid: prefetch hint
kernel void k(global const int *in, global int *o) {
    prefetch(in, 16);
    prefetch(in + 16, 16);
    o[0] = in[0] + in[17];
}
