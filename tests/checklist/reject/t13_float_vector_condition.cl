// expect: E0303
kernel void t13(global float2 *o) {
    float2 a = (float2)(1.0f, 1.0f), b = (float2)(-1.0f, -1.0f);
    float2 fc = o[0]; float2 bad = fc ? a : b;                   // REJECT: exp1 must not be float
    o[1] = bad;
}
