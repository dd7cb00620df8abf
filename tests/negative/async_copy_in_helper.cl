// expect: E0511
void fill(local int *t, global const int *g) { event_t e = async_work_group_copy(t, g, 8, 0); wait_group_events(1, &e); }
__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void k(global const int *g, global int *o) { local int t[8]; fill(t, g); o[get_global_id(0)] = t[get_local_id(0)]; }
