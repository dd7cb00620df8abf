// expect: E0308
// options: -cl-std=CL1.2
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void k(global int *a) { a[0] = work_group_reduce_add(a[get_global_id(0)]); }
