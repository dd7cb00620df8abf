// `__local` pointer kernel arguments: the host gives their sizes (`{ local = N }` in the run
// spec, `clSetKernelArg(k, i, bytes, NULL)` in OpenCL). A tile of each work-group is staged in
// one, reversed through another, and a helper function takes a `__local` pointer; the third has
// Intel's `local_mem_size` attribute, which fixes the size the hardware is built with.
// c-reference: no (barriers: work-items cannot run one after another in C)
int across(local const int *t, size_t lid, size_t n) {
    return t[lid] - t[(lid + n / 2) % n];
}

__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void local_args(global const int *in, global int *out, local int *tile, local short *rev,
                       __attribute__((local_mem_size(64))) local uint *count) {
    size_t lid = get_local_id(0), gid = get_global_id(0);
    tile[lid] = in[gid];
    if (lid == 0)
        count[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    rev[7 - lid] = (short)tile[lid];
    atomic_inc(&count[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[3 * gid] = rev[lid];
    out[3 * gid + 1] = count[0];
    out[3 * gid + 2] = across(tile, lid, 8);
}
