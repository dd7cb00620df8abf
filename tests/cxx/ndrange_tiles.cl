// The OpenCL C twin of ndrange_tiles.clcpp.
__attribute__((reqd_work_group_size(16, 1, 1)))
kernel void ndrange_tiles(__global const int *in, __global int *out) {
    __local int tile[16];
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    tile[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    int l = lid - 1 < 0 ? 0 : lid - 1;
    int r = lid + 1 >= 16 ? 15 : lid + 1;
    out[gid] = tile[l] + 2 * tile[lid] + tile[r];
}
