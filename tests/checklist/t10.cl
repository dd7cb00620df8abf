// T10: usual arithmetic conversions with vectors, the accepted lines (checklist §5).
// engines: emu sim cosim
// expect o = [1, -2, 3, 2147483647, 2, -1, 4, -2147483648]
// expect os = [1, 2, 3, 4, 5, 6, 32767, -32768, 4, 5, 6, 7, 8, 9, -32766, -32765]
// expect of = [1.5, -2, 0, 3, 2.5, -1, 1, 4, 3, -4, 0, 6]
kernel void t10(global int4 *o, global short8 *os, global float4 *of) {
    int4 v = o[0]; short8 s = os[0]; char c = 3; float4 f = of[0];
    o[1]  = v + 1;
    os[1] = s + c;
    of[1] = f + 1;
    of[2] = f * 2.0f;
}
