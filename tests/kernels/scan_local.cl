// Inclusive prefix sum of 32-element blocks (Hillis-Steele) in __local memory, double-buffered
// so each of the five steps reads one buffer and writes the other between barriers.
// c-reference: no (barriers: work-items cannot run one after another in C)
#define N 32
__attribute__((reqd_work_group_size(N, 1, 1)))
kernel void scan_local(global const int *in, global int *out) {
    local int buf[2][N];
    size_t lid = get_local_id(0);
    size_t gid = get_global_id(0);
    int src = 0;
    buf[0][lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < N; offset <<= 1) {
        int v = buf[src][lid];
        if (lid >= offset)
            v += buf[src][lid - offset];
        buf[1 - src][lid] = v;
        src = 1 - src;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid] = buf[src][lid];
}
