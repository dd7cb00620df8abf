// expect: E0511
// options: -cl-std=CL2.0
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void k(global int *a) {
    int v = a[get_global_id(0)];
    while (work_group_any(v > 0))
        v--;
    a[get_global_id(0)] = v;
}
