// OpenCL C form of porting_vector_constructors.clcpp: vector literals.
kernel void porting_vector_constructors(__global uint4 *u4, __global int4 *i4, __global float4 *f4) {
    u4[0] = (uint4)(1);
    i4[0] = (int4)(-1, -2, 3, 4);
    f4[0] = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    f4[1] = (float4)((float2)(1.0f, 2.0f), (float2)(3.0f, 4.0f));
    f4[2] = (float4)(1.0f, (float2)(2.0f, 3.0f), 4.0f);
}
