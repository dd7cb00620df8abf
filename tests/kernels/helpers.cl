// Helper functions (inlined), including one that takes pointers and one that returns early.
static int clamp_int(int v, int lo, int hi) {
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}
void swap(global int *a, global int *b) {
    int t = *a;
    *a = *b;
    *b = t;
}
int sum3(const int *p) { return p[0] + p[1] + p[2]; }
kernel void helpers(global int *data, global int *out, int n) {
    int window[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        window[i % 3] = data[i];
        out[i] = clamp_int(sum3(window), -500, 500);
    }
    for (int i = 0; i + 1 < n; i += 2)
        swap(&data[i], &data[i + 1]);
}
