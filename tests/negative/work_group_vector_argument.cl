// expect: E0330
// options: -cl-std=CL2.0
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void k(global int4 *a) { a[0] = work_group_reduce_add(a[get_global_id(0)]); }
