// valid: intel pragmas
kernel void k(global int *o, int n) {
#pragma ii 1
    for (int i = 0; i < n; i++) o[i] = i;
#pragma ivdep safelen(4)
    for (int i = 4; i < n; i++) o[i] += o[i - 4];
}
