// expect: E0330
kernel void k(global const int *a, global int *b) { event_t e = async_work_group_copy(b, a, 4, 0); wait_group_events(1, &e); }
