// expect: E0511
// not yet: work-group collective functions (`__opencl_c_work_group_collective_functions`)
__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void t20(global const int *p, global int *inc, global int *exc, global int *bc) {
    size_t g = get_global_id(0);
    inc[g] = work_group_scan_inclusive_add(p[g]);     // [3 4 11 11 15 16 22 25] for p = [3 1 7 0 4 1 6 3]
    exc[g] = work_group_scan_exclusive_add(p[g]);     // [0 3 4 11 11 15 16 22]
    bc[g]  = work_group_broadcast(p[g], 0);           // [3 3 3 3 3 3 3 3]
}
