// The OpenCL C twin of lib_stencil_tile.clcpp.
__constant float kCoef[3] = {0.25f, 0.5f, 0.25f};

__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void lib_stencil_tile(global const float *in, global float *out) {
    local float tile[10];
    size_t lid = get_local_id(0), gid = get_global_id(0);
    tile[lid + 1] = in[gid];
    if (lid == 0) {
        tile[0] = gid > 0 ? in[gid - 1] : 0.0f;
        tile[9] = gid + 8 < get_global_size(0) ? in[gid + 8] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float w[3];
    for (int k = 0; k < 3; ++k) w[k] = tile[lid + k];
    float m[3][3] = {{0}};
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) m[i][j] = w[(i + j) % 3];
    float acc = (float)(0);
    for (int i = 0; i < 3; ++i) acc += w[i] * kCoef[i];
    float t = 0;
    for (size_t i = 0; i < 3; ++i) t += m[i][i];
    out[gid] = acc + t;
}
