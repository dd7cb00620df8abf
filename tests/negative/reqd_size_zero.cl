// expect: E0423
__attribute__((reqd_work_group_size(0, 1, 1))) kernel void k(global int *o) { o[0] = 1; }
