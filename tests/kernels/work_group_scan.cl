// A running sum per work-group with work_group_scan_inclusive_add, its total with
// work_group_reduce_add and the first work-item's value with work_group_broadcast (the
// synthesized representative of the work-group functions; work_group_functions covers them all).
// options: -cl-std=CL2.0
// c-reference: no (work-group functions: work-items cannot run one after another in C)
// pocl: no (PoCL 3.1 has no work-group collective functions; tests/tests/work_group.rs checks the values)
__attribute__((reqd_work_group_size(16, 1, 1)))
kernel void work_group_scan(global const int *in, global int *out) {
    size_t g = get_global_id(0);
    int v = in[g];
    int running = work_group_scan_inclusive_add(v);
    out[g] = running * 2 - work_group_reduce_add(v) + work_group_broadcast(v, 0);
}
