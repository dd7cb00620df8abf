// expect: E0512
__attribute__((reqd_work_group_size(64, 1, 1))) kernel void k(global int *a) { }
