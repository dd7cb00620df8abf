// A row blur over tiles staged in local memory, as vision kernels write it: the event of
// `async_work_group_copy` named in its own initializer (legal C scoping), then a barrier-free
// wait and a three-tap filter per work-item.
#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, 1, 1)))
void async_tile_blur(__global const int *src, __global int *dst, __local int *tile)
{
    const int g = get_group_id(0);
    const int l = get_local_id(0);
    event_t e = async_work_group_copy(tile, src + g * TILE, TILE, e);
    wait_group_events(1, &e);
    int left = tile[l > 0 ? l - 1 : l];
    int right = tile[l < TILE - 1 ? l + 1 : l];
    dst[g * TILE + l] = (left + 2 * tile[l] + right) / 4;
}
