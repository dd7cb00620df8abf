// valid: local array
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void k(global int *o) { local int t[4]; t[get_local_id(0)] = 1; barrier(CLK_LOCAL_MEM_FENCE); o[get_global_id(0)] = t[3 - get_local_id(0)]; }
