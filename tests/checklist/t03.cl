// T03: swizzle reads and writes, values executed in sequence (checklist §5, accept).
// engines: emu sim cosim
// expect o = [4, 3, 2, 1, 1, 1, 2, 2, 3, 5, 9, 7]
// expect o16 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 4, 5, 6, 8, 9, 10, 12, 13, 14, 1, 2, 3]
kernel void t03(global float4 *o, global float16 *o16) {
    float4 pos = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    o[0] = pos.wzyx;
    o[1] = pos.xxyy;
    pos.xw  = (float2)(5.0f, 6.0f);
    pos.wx  = (float2)(7.0f, 8.0f);
    pos.xyz = (float3)(3.0f, 5.0f, 9.0f);
    o[2] = pos;
    float4 a = (float4)(0.0f, 1.0f, 2.0f, 3.0f), b = (float4)(4.0f, 5.0f, 6.0f, 7.0f),
           c = (float4)(8.0f, 9.0f, 10.0f, 11.0f), d = (float4)(12.0f, 13.0f, 14.0f, 15.0f);
    o16[0] = (float16)(a, b, c, d);
    o16[1] = (float16)(a.xxxx, b.xyz, c.xyz, d.xyz, a.yzw);
}
