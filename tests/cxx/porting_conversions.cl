// OpenCL C form of porting_conversions.clcpp.
kernel void porting_conversions(__global const float4 *fin, __global float4 *fout, __global int4 *iout, __global uint *uout) {
    int4 i = (int4)(-1, 0, 1, 2);
    float4 f = fin[0];
    fout[0] = convert_float4(i);
    fout[1] = convert_float4_rtp(i);
    iout[0] = convert_int4_sat(f);
    iout[1] = convert_int4_sat_rte(f);
    uout[0] = as_uint(1.0f);
    iout[2] = as_int4((float4)(1.0f, 2.0f, 3.0f, 4.0f));
}
