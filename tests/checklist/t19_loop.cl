// T19 (loop form): one barrier pair per iteration of a loop with a uniform bound (checklist §5).
// engines: emu sim cosim
// expect out = [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4]
kernel void t19_loop(global int *out, int n) {
    local int s;
    for (int i = 0; i < n; i++) {
        if (get_local_id(0) == 0) s = i;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0) * n + i] = s;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
