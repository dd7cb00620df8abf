// expect: E0511
// options: -cl-std=CL2.0
int total(int v) { return work_group_reduce_add(v); }
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void k(global int *a) { a[get_global_id(0)] = total(a[get_global_id(0)]); }
