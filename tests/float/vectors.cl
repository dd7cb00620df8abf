// float vectors of every width: arithmetic, swizzles, literals, vload/vstore, comparisons.
#pragma OPENCL FP_CONTRACT OFF
kernel void vectors(global const float *in, global float *out, global int *cmp) {
    int i = get_global_id(0);
    float2 a = vload2(i, in);
    float3 b = vload3(i, in + 64);
    float4 c = vload4(i, in + 128);
    float8 d = vload8(i, in + 256);
    float16 e = vload16(i, in + 512);
    float4 t = c * c.wzyx - (float4)(a, b.xy) / 2.0f;
    float8 u = d.s76543210 + (float8)(t, -t);
    float16 w = e * 0.5f + (float16)(u, u.hi, u.lo);
    vstore4(t, i, out);
    vstore8(u, i, out + 64);
    vstore16(w, i, out + 192);
    vstore3(b.zxy + 1.0f, i, out + 448);
    int4 m = c > t;
    vstore4(m, i, cmp);
    cmp[64 + i] = (int)(d.s0 < d.s7) + (int)(e.sf != e.sf);
}
