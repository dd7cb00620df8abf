// The common functions (clamp, mix, step, smoothstep, sign, degrees, radians, min, max) with
// scalar and vector forms; a scalar argument of a vector call applies to every lane.
// ulp: 4
#pragma OPENCL FP_CONTRACT OFF
kernel void common(global const float4 *x, global float4 *o) {
    int i = get_global_id(0);
    float4 v = x[i];
    o[i * 9 + 0] = clamp(v, -1.0f, 1.0f);
    o[i * 9 + 1] = mix(v, (float4)(10.0f, 20.0f, 30.0f, 40.0f), 0.25f);
    o[i * 9 + 2] = step(0.5f, v);
    o[i * 9 + 3] = smoothstep(-2.0f, 2.0f, v);
    o[i * 9 + 4] = sign(v);
    o[i * 9 + 5] = degrees(v);
    o[i * 9 + 6] = radians(v);
    o[i * 9 + 7] = max(v, 0.0f) + min(v, v.wzyx);
    o[i * 9 + 8] = fmax(v, v.yxwz) - fmin(v, 0.5f);
}
