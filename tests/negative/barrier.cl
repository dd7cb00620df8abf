// expect: E0606
__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void k(global int *a) { if (get_local_id(0) < 4) barrier(CLK_LOCAL_MEM_FENCE); }
