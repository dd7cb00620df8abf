// OpenCL C form of porting_atomics.clcpp.


__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void porting_atomics(global atomic_int *a, global int *out) {
    local atomic_int f;
    if (get_global_id(0) == 0) atomic_init(&a[0], 123);
    if (get_local_id(0) == 0) atomic_store(&f, 0);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    atomic_fetch_add(&a[0], 1);
    atomic_fetch_add(&f, (int)get_local_id(0));
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 0) out[get_group_id(0)] = atomic_load(&f);
}
