// expect: E0307
kernel void k(global int *o) { o[1] = atomic_inc(o, 1); }
