// T24: C11 atomics: declarations, initialization and a local counter (checklist §5).
// engines: emu sim cosim
// expect out = [46, 46, 46]
kernel void t24(global int *out) {
    local atomic_int guide;
    if (get_local_id(0) == 0) atomic_init(&guide, 42);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    int old = atomic_fetch_add_explicit(&guide, 1, memory_order_relaxed, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) out[get_group_id(0)] = atomic_load_explicit(&guide, memory_order_relaxed, memory_scope_work_group);
}
