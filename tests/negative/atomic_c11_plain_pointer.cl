// expect: E0330
kernel void k(global int *o) { o[1] = atomic_fetch_add(o, 1); }
