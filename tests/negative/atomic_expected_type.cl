// expect: E0330
kernel void k(global atomic_int *a, global int *o) {
    long e = 0;
    o[0] = atomic_compare_exchange_strong(a, &e, 1);
}
