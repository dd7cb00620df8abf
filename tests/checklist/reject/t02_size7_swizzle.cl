// expect: E0417
kernel void t02(global float16 *o) {
    float4 a = 0, b = 0, cc = 0, d = 0; float16 x;
    x = (float16)(a.xxxxxxx, b.xyz, cc.xyz, d.xyz); // REJECT: a.xxxxxxx is not a valid vector type (size 7)
    o[0] = x;
}
