// Histogram of bytes in an NDRange kernel: each work-group counts into __local bins with
// atomic_inc, then adds its bins into the global histogram with atomic_add. Neighbouring
// work-items often hit the same bin, so the work-item loop must keep the read-modify-write
// order although work-items are otherwise independent.
// c-reference: no (atomics and barriers: work-items cannot run one after another in C)
#define BINS 16
__attribute__((reqd_work_group_size(32, 1, 1)))
kernel void atomic_histogram(global const uchar *pixels, global uint *hist) {
    local uint bins[BINS];
    size_t lid = get_local_id(0);
    if (lid < BINS)
        bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[pixels[get_global_id(0)] >> 4]); // expect-loop: pipelined=true achieved_ii=2 rec_mii=2
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < BINS)
        atomic_add(&hist[lid], bins[lid]);
}
