// T01: vector literal forms (checklist §5, accept).
// engines: emu sim cosim
// expect out = [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]
// expect uo = [1, 1, 1, 1]
kernel void t01(global float4 *out, global uint4 *uo) {
    out[0] = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    uo[0]  = (uint4)(1);
    out[1] = (float4)((float2)(1.0f, 2.0f), (float2)(3.0f, 4.0f));
    out[2] = (float4)(1.0f, (float2)(2.0f, 3.0f), 4.0f);
    out[3] = (float4)(1, 2, 3, 4);      // int operands: accepted (the checklist's recommended policy)
}
