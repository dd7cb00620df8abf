// expect: E0304
kernel void t10(global int4 *o, global float4 *of) {
    int4 v = o[0]; float4 f = of[0];
    o[4]  = v + f;          // REJECT: two different vector types
}
