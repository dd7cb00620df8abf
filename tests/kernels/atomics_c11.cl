// The C11-style atomic functions of OpenCL C 2.0/3.0 on atomic types in __global and __local
// memory and in a private variable: load/store/init/exchange, every fetch operation (signed
// and unsigned min/max), compare-exchange that succeeds and fails (and updates `expected`),
// the atomic_flag functions, with explicit orders and scopes, and `atomic_work_item_fence`
// (which orders nothing more: a work-item's accesses are in program order). Returned values are
// recorded.
// c-reference: no (atomic built-ins)
__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void atomics_c11(global atomic_int *a, global atomic_uint *u, global atomic_long *l,
                        global long *out) {
    local atomic_int shared[2];
    local atomic_flag flag;
    int k = 0;
    atomic_init(&shared[0], 40);
    atomic_store_explicit(&shared[1], -2, memory_order_relaxed);
    atomic_flag_clear(&flag);
    out[k++] = atomic_load(&a[0]);
    out[k++] = atomic_fetch_add(&a[0], 10);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_group);
    out[k++] = atomic_fetch_sub_explicit(&a[1], 3, memory_order_seq_cst);
    out[k++] = atomic_fetch_and_explicit(&a[2], 0x3c, memory_order_acq_rel, memory_scope_device);
    out[k++] = atomic_fetch_or(&a[3], 0x100);
    out[k++] = atomic_fetch_xor(&a[4], -1);
    out[k++] = atomic_fetch_min(&a[5], -7);
    out[k++] = atomic_fetch_max_explicit(&a[6], -7, memory_order_relaxed, memory_scope_work_group);
    out[k++] = atomic_exchange(&a[7], 1234);
    int expected = 77;
    out[k++] = atomic_compare_exchange_strong(&a[8], &expected, 88);
    out[k++] = expected;
    expected = 77;
    out[k++] = atomic_compare_exchange_weak_explicit(&a[9], &expected, 88, memory_order_seq_cst,
                                                     memory_order_relaxed);
    out[k++] = expected;
    out[k++] = atomic_fetch_min(&u[0], 5u);
    out[k++] = atomic_fetch_max(&u[1], 5u);
    out[k++] = atomic_fetch_add(&u[2], 1u);
    out[k++] = atomic_fetch_add(&l[0], 1L);
    out[k++] = atomic_fetch_min(&l[1], 0L);
    long lexp = -1;
    out[k++] = atomic_compare_exchange_strong(&l[2], &lexp, 0x7fffffff00000000L);
    out[k++] = atomic_flag_test_and_set(&flag);
    out[k++] = atomic_flag_test_and_set_explicit(&flag, memory_order_acquire);
    atomic_flag_clear_explicit(&flag, memory_order_release);
    out[k++] = atomic_flag_test_and_set(&flag);
    out[k++] = atomic_fetch_add(&shared[0], atomic_load(&shared[1]));
    out[k++] = atomic_load_explicit(&shared[0], memory_order_acquire, memory_scope_work_group);
    int seen = atomic_load(&a[0]);
    out[k++] = seen;
    atomic_store(&a[10], seen * 2);
}
