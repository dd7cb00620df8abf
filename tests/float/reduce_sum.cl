// A work-group tree reduction of floats in __local memory; the partial sums are written per
// group. The tree fixes the order of the additions, so every engine gets the same bits.
kernel void reduce_sum(global const float *x, global float *partial) {
    local float s[64];
    int l = get_local_id(0);
    s[l] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 32; w > 0; w >>= 1) {
        if (l < w)
            s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        partial[get_group_id(0)] = s[0];
}
