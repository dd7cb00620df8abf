// Dot product in an NDRange kernel: a tree reduction per work-group in __local memory, then one
// atomic_add of each group's partial sum into the result.
// c-reference: no (atomics and barriers)
#define G 16
__attribute__((reqd_work_group_size(G, 1, 1)))
kernel void dot_atomic(global const short *x, global const short *y, global int *sum) {
    local int part[G];
    size_t lid = get_local_id(0);
    size_t gid = get_global_id(0);
    part[lid] = x[gid] * y[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = G / 2; s > 0; s >>= 1) {
        if (lid < s)
            part[lid] += part[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        atomic_add(sum, part[0]);
}
