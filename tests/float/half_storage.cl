// `half` storage without cl_khr_fp16: vload_half/vload_halfN/vloada_halfN read half data as
// float (exact), vstore_half[N][_rte|_rtz|_rtp|_rtn] and vstorea_halfN round float data to
// half (overflow to infinity, subnormals kept, NaN stays NaN), over normal, subnormal, signed
// zero, infinite and NaN values.
kernel void half_storage(global const half *h, global const float *x, global float *loaded,
                         global half *stored, global half *rounded) {
    int i = get_global_id(0);
    loaded[i] = vload_half(i, h);
    if (i < 4) {
        float4 v = vload_half4(i, h);
        float3 a = vloada_half3(i, h);
        loaded[16 + 4 * i] = v.x + v.w;
        loaded[16 + 4 * i + 1] = v.y - v.z;
        loaded[16 + 4 * i + 2] = a.x * a.y;
        loaded[16 + 4 * i + 3] = a.z;
    }
    float f = x[i];
    vstore_half(f, i, stored);
    vstore_half_rtz(f, 4 * i, rounded);
    vstore_half_rtp(f, 4 * i + 1, rounded);
    vstore_half_rtn(f, 4 * i + 2, rounded);
    vstore_half_rte(f * 3.0f, 4 * i + 3, rounded);
    if (i < 2) {
        vstore_half8(vload8(i, x), 2 + i, stored);
        vstorea_half3_rtz((float3)(f, -f, f * 0.5f), 9 + i, stored);
    }
}
