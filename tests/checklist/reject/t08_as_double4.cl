// expect: E0330 E0502
kernel void t08(global float4 *o) {
    float4 f = o[0];
    double4 bad2 = as_double4(f);                         // REJECT: 16 vs 32 bytes (and needs fp64)
}
