// expect: E0504
kernel void k(global int *a) { a[get_global_id(0)] = 1; }
