// expect: E0504
kernel void k(global int *a, int d) { a[get_global_id(d)] = 1; }
