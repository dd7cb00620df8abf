// Minimum, maximum and their positions with the conditional operator.
kernel void minmax(global const int *v, global int *out, int n) {
    int lo = v[0], hi = v[0], lo_at = 0, hi_at = 0;
    for (int i = 1; i < n; i++) {
        int x = v[i];
        lo_at = x < lo ? i : lo_at;
        lo = x < lo ? x : lo;
        hi_at = x > hi ? i : hi_at;
        hi = x > hi ? x : hi;
    }
    out[0] = lo;
    out[1] = lo_at;
    out[2] = hi;
    out[3] = hi_at;
}
