// The OpenCL C twin of lib_workgroup_reduce.clcpp.
__attribute__((reqd_work_group_size(32, 1, 1)))
kernel void lib_workgroup_reduce(global const int *in, global int *sums, global int *centered) {
    local int scratch[32];
    size_t gid = get_global_id(0);
    size_t lid = get_local_id(0);
    int v = in[gid];
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = 16; stride > 0; stride /= 2) {
        if (lid < stride) scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int total = scratch[0];
    centered[gid] = v * 32 - total;
    if (lid == 0) sums[get_group_id(0)] = total;
}
