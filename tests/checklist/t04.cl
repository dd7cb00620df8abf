// T04: numeric indices, .lo/.hi/.even/.odd, a 4x4 transpose through a private array argument,
// engines: emu sim cosim
// expect io = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]
// expect il = [1, 5, 2, 6, 3, 7, 4, 8]
// expect o = [1, 2, 3, 4, 5, 6, 7, 8, 10, 15, 0, 7, 1, 2, 3, _, 10, 11, 12, 13]
// stereo interleave (checklist §5, accept).
void transpose(float4 m[4]) {
    float16 x = (float16)(m[0], m[1], m[2], m[3]);
    float16 t;
    t.even = x.lo;  t.odd = x.hi;
    x.even = t.lo;  x.odd = t.hi;
    m[0] = x.lo.lo; m[1] = x.lo.hi; m[2] = x.hi.lo; m[3] = x.hi.hi;
}
kernel void t04(global float4 *io, global float8 *il, global float4 *o) {
    float4 m[4] = { io[0], io[1], io[2], io[3] };
    transpose(m);
    io[0] = m[0]; io[1] = m[1]; io[2] = m[2]; io[3] = m[3];
    float4 left = (float4)(1.0f, 2.0f, 3.0f, 4.0f), right = (float4)(5.0f, 6.0f, 7.0f, 8.0f);
    float8 interleaved;
    interleaved.even = left;  interleaved.odd = right;
    il[0] = interleaved;
    o[0] = interleaved.even; o[1] = interleaved.odd;
    float4 f = (float4)(10.0f, 11.0f, 12.0f, 13.0f), a;
    a.xyzw = f.s0123;
    o[4] = a;
    float16 x16 = (float16)(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f,
                            8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f);
    o[2] = (float4)(x16.sa, x16.SF, x16.s0, x16.s7);
    float3 vf = (float3)(1.0f, 2.0f, 3.0f);
    o[3] = (float4)(vf.lo, vf.hi);
}
