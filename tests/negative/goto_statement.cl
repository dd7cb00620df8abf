// expect: E0515
kernel void k(global int *a) { goto out; out: a[0] = 1; }
