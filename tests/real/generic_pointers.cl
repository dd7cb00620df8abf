// flags: -cl-std=CL2.0
// pocl: no (PoCL 3.1 here builds no generic address space: `to_global` is undeclared; tests/tests/real_world.rs checks the results)
// OpenCL 2.0 generic pointers: a helper that adds into whichever memory it is given, and asks
// with `to_global`/`to_local`/`to_private` where that is.
int where(int *p)
{
    return (to_global(p) != 0) * 1 + (to_local(p) != 0) * 2 + (to_private(p) != 0) * 4;
}

void bump(int *p, int by)
{
    __global int *g = to_global(p);
    if (g)
        *g += by;
    else
        *p += 2 * by;
}

__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void generic_pointers(__global int *buf, __global int *kinds)
{
    __local int shared[4];
    int mine[2] = {10, 20};
    int l = get_local_id(0);
    shared[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    bump(&buf[get_global_id(0)], 3);
    bump(&mine[1], 5);
    bump(&shared[l], 7);
    kinds[get_global_id(0) * 3 + 0] = where(&buf[0]);
    kinds[get_global_id(0) * 3 + 1] = where(&shared[l]) + shared[l] * 8;
    kinds[get_global_id(0) * 3 + 2] = where(&mine[0]) + mine[1] * 8;
}
