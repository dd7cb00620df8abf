// T06: explicit casts, the accepted lines (checklist §5).
// engines: emu sim cosim
// expect of = [1, 1, 1, 1, 255, 255, 255, 255]
// expect oi = [1]
// expect o2 = [2, 2]
// expect ou = [255, 255, 255, 255]
kernel void t06(global float4 *of, global int *oi, global int2 *o2, global uchar4 *ou) {
    float f = 1.0f;  oi[0] = (int)f;
    of[0] = (float4)f;
    uchar u = 0xFF;  of[1] = (float4)u;
    float g = 2.0f;  o2[0] = (int2)g;
    ou[0] = (uchar4)true;
}
