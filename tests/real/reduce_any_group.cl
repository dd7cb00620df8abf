// A tree reduction in local memory as GPU-style OpenCL writes it: no required work-group
// size (Intel's compiler builds it for up to `max_work_group_size` work-items and takes the
// size at run time), the loop bound from `get_local_size`, a private array live across
// barriers, and a loop with barriers whose trip count each work-item computes the same way.
__kernel __attribute__((max_work_group_size(64)))
void reduce_any_group(__global const int *in, __global int *partial, __global int *spread, __local int *scratch)
{
    const int lid = get_local_id(0);
    const int n = get_local_size(0);
    int mine[2];
    mine[0] = in[get_global_id(0)];
    mine[1] = mine[0] * mine[0];
    scratch[lid] = mine[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
    // Each work-item still has its own values from before the barriers.
    spread[get_global_id(0)] = mine[1] - scratch[0];
}
