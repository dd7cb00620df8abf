// T20: work-group collectives (checklist §5), with the checklist's input in one work-group.
// engines: emu sim cosim
// expect inc = [3, 4, 11, 11, 15, 16, 22, 25]
// expect exc = [0, 3, 4, 11, 11, 15, 16, 22]
// expect bc = [3, 3, 3, 3, 3, 3, 3, 3]
__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void t20(global const int *p, global int *inc, global int *exc, global int *bc) {
    size_t g = get_global_id(0);
    inc[g] = work_group_scan_inclusive_add(p[g]);
    exc[g] = work_group_scan_exclusive_add(p[g]);
    bc[g]  = work_group_broadcast(p[g], 0);
}
