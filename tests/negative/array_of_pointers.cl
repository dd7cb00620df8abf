// expect: E0602
// The array is rejected once; its uses below give no further errors.
kernel void k(global int *a, global int *b, global int *out) {
    global int *ptrs[2] = {a, b};
    out[0] = ptrs[1][0] + ptrs[0][1];
}
