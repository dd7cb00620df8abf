// A vector set from uniform values before a barrier and read after it (found by `kiln fuzz`,
// seed 2515: it read as 0). Its lanes are recomputed after the barrier, with the temporaries
// their initializers read.
__kernel void uniform_vector_barrier(__global int *out, __global const int *in, uint p0)
{
    __local int tile[4];
    long2 v = (long2)(0, (long)p0);
    int4 w = (int4)((int)p0, 2, 3, (int)get_local_size(0));
    tile[get_local_id(0)] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int n = tile[(get_local_id(0) + 1) % 4];
    out[get_global_id(0)] = (int)v.s1 + n + w.x + w.w;
}
