// The work-group collective functions (OpenCL C 2.0 / 3.0): every reduce and scan on int,
// uint and long, all/any, and broadcasts in a 2-D work-group of 4 x 2 (scan order follows the
// local linear id); a collective in an `if` condition, one in a loop body, and a collective
// whose value is another collective's result.
// options: -cl-std=CL2.0
// c-reference: no (work-group functions: work-items cannot run one after another in C)
// pocl: no (PoCL 3.1 has no work-group collective functions; tests/tests/work_group.rs checks the values)
// synthesis: as work_group_scan
__attribute__((reqd_work_group_size(4, 2, 1)))
kernel void work_group_functions(global const int *in, global const uint *u, global const long *l,
                                 global int *sums, global uint *umix, global long *lmix,
                                 global int *flags, global int *iter) {
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t g = y * get_global_size(0) + x;
    int v = in[g];
    sums[8 * g + 0] = work_group_reduce_add(v);
    sums[8 * g + 1] = work_group_reduce_min(v);
    sums[8 * g + 2] = work_group_reduce_max(v);
    sums[8 * g + 3] = work_group_scan_inclusive_add(v);
    sums[8 * g + 4] = work_group_scan_exclusive_add(v);
    sums[8 * g + 5] = work_group_scan_inclusive_max(v);
    sums[8 * g + 6] = work_group_scan_exclusive_min(v);
    sums[8 * g + 7] = work_group_broadcast(v, 2, 1) + work_group_broadcast(v, 3, 0);
    uint w = u[g];
    umix[4 * g + 0] = work_group_reduce_min(w);
    umix[4 * g + 1] = work_group_reduce_max(w);
    umix[4 * g + 2] = work_group_scan_exclusive_max(w);
    umix[4 * g + 3] = work_group_scan_inclusive_min(w);
    long z = l[g];
    lmix[3 * g + 0] = work_group_reduce_add(z);
    lmix[3 * g + 1] = work_group_scan_inclusive_add(z);
    lmix[3 * g + 2] = work_group_reduce_min(z);
    flags[4 * g + 0] = work_group_all(v > -1000);
    flags[4 * g + 1] = work_group_any(v == 7);
    flags[4 * g + 2] = work_group_all(v & 1);
    if (work_group_any(v < 0))
        flags[4 * g + 3] = 1;
    else
        flags[4 * g + 3] = 2;
    // A running total across rounds; the second collective takes the first one's result.
    int acc = 0;
    for (int r = 0; r < 3; r++) {
        acc += work_group_scan_inclusive_add(v + r);
        iter[3 * g + r] = work_group_reduce_max(acc) - acc;
    }
}
