// The OpenCL C twin of vector_functors.clcpp.
kernel void vector_functors(__global const float4 *fin, __global float4 *fout, __global const int4 *iin, __global int4 *iout, int n) {
    float4 scale = (float4)(2.0f, 0.5f, -1.0f, 1.0f);
    float4 offset = (float4)(1.0f, 0.0f, 0.25f, -3.0f);
    for (int i = 0; i < n; ++i) fout[i] = fin[i] * scale + offset;
    int4 lo = (int4)(-5), hi = (int4)(5, 10, 15, 20);
    for (int i = 0; i < n; ++i) iout[i] = max(lo, min(iin[i], hi));
    int4 s = iout[0] + iout[1];
    iout[n] = (int4)(s.x + s.y, s.z * 2, s.w, s.x - s.w);
}
