// flags: --max-work-group-size 128
// A per-work-group histogram in `__local` memory, as benchmark suites write it: no required
// work-group size, the bins cleared and written back by a loop strided by `get_local_size`,
// atomics on `__local` counters between two barriers.
#define BINS 16

__kernel void local_histogram(__global const uchar *pixels, __global uint *group_bins, uint n)
{
    __local uint bins[BINS];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);
    for (uint b = lid; b < BINS; b += lsize)
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint gid = get_global_id(0);
    if (gid < n)
        atomic_inc(&bins[pixels[gid] % BINS]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < BINS; b += lsize)
        group_bins[get_group_id(0) * BINS + b] = bins[b];
}
