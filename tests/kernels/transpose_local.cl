// Matrix transpose through a __local tile in a 2-D NDRange: each work-group loads an 8x8 tile,
// synchronizes, and writes it back transposed (the classic coalescing pattern).
// c-reference: no (barriers: work-items cannot run one after another in C)
#define TILE 8
__attribute__((reqd_work_group_size(TILE, TILE, 1)))
kernel void transpose_local(global const int *in, global int *out, int width, int height) {
    local int tile[TILE][TILE + 1];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t gx = get_group_id(0) * TILE + lx, gy = get_group_id(1) * TILE + ly;
    tile[ly][lx] = in[gy * width + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t ox = get_group_id(1) * TILE + lx, oy = get_group_id(0) * TILE + ly;
    out[oy * height + ox] = tile[lx][ly];
}
