// Asynchronous work-group copies: a tile of int4 vectors is copied into __local memory, a
// column of a row-major matrix gathered with a strided copy, each work-item works on the
// tile, and the results go back to __global memory with a copy and a strided scatter, each
// copy waited for with wait_group_events.
// c-reference: no (barriers: work-items cannot run one after another in C)
__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void async_copy(global const int4 *in, global const int *matrix, global int4 *out, global int *cols) {
    local int4 tile[8];
    local int column[8];
    local int4 result[8];
    local int scaled[8];
    size_t lid = get_local_id(0), grp = get_group_id(0);
    event_t e[2];
    e[0] = async_work_group_copy(tile, in + grp * 8, 8, 0);
    e[1] = async_work_group_strided_copy(column, matrix + grp, 8, 4, 0);
    wait_group_events(2, e);
    result[lid] = (tile[7 - lid] ^ column[lid]) + (int4)(lid, grp, 1, -1);
    scaled[lid] = column[lid] * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t back = async_work_group_copy(out + grp * 8, result, 8, 0);
    back = async_work_group_strided_copy(cols + grp, scaled, 8, 4, back);
    wait_group_events(1, &back);
}
