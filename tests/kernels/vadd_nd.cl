// Vector addition as an NDRange kernel: one work-item per element, streamed through a pipeline
// that starts one work-item per cycle.
kernel void vadd_nd(global const int *a, global const int *b, global int *c) { // expect-loop: pipelined=true achieved_ii=1 mii=1
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
