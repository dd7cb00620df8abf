// Work-group sum reduction in __local memory: a tree of barrier-separated phases, then one
// partial sum per work-group.
// c-reference: no (barriers: work-items cannot run one after another in C)
__attribute__((reqd_work_group_size(16, 1, 1)))
kernel void reduce_local(global const int *in, global int *partial) {
    local int buf[16];
    size_t lid = get_local_id(0);
    buf[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 8; s > 0; s >>= 1) {
        if (lid < s) // expect-loop: pipelined=true achieved_ii=2 res_mii=2 rec_mii=1
            buf[lid] += buf[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = buf[0];
}
