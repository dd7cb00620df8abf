// The OpenCL C twin of lib_atomics.clcpp (C11-style atomics).
__attribute__((reqd_work_group_size(16, 1, 1)))
kernel void lib_atomics(global const int *in, global atomic_int *total, global int *per_group) {
    local atomic_int positives;
    if (get_local_id(0) == 0) atomic_store(&positives, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[get_global_id(0)];
    atomic_fetch_add(&total[0], v);
    if (v > 0) atomic_fetch_add(&positives, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) per_group[get_group_id(0)] = atomic_load(&positives);
}
