// expect: E0307
kernel void k(global atomic_int *a, global int *o) {
    o[0] = atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_device, 3);
}
