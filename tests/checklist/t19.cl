// T19: barriers with local memory (checklist §5).
// engines: emu sim cosim
// expect out = [2, 2, 2, 2, 2, 2, 2, 2]
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void t19(global int *out) {
    local int a;
    local int arr[2];
    if (get_local_id(0) == 0) { a = 1; arr[0] = 0; arr[1] = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 1) a += 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = a + arr[1];
}
