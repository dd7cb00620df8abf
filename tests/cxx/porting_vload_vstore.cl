// OpenCL C form of porting_vload_vstore.clcpp.
kernel void porting_vload_vstore(__global float *fptr) {
    float4 f4 = vload4(0, fptr);
    float2 f2 = vload2(2, fptr);
    vstore4((float4)(1, 2, 3, 4), 0, fptr);
    vstore2(f2 * 2.0f, 4, fptr);
    vstore4(f4 + 1.0f, 3, fptr);
}
