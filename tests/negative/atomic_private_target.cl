// expect: E0424
kernel void k(global int *o) {
    int q = 0;
    o[0] = atomic_inc(&q);
}
