// T13: vector ?: equals select (MSB test); scalar select tests non-zero (checklist §5).
// engines: emu sim cosim
// expect o = [-1, 1, -1, 1, 1, 1]
// expect s = [2, 2, 1]
kernel void t13(global float2 *o, global float *s) {
    int2 c = (int2)(-1, 1);
    float2 a = (float2)(1.0f, 1.0f), b = (float2)(-1.0f, -1.0f);
    o[0] = select(a, b, c);
    o[1] = c ? b : a;
    o[2] = select((float2)(1.0f), (float2)(2.0f), (int2)(1, 0));
    s[0] = select(1.0f, 2.0f, -1);
    s[1] = select(1.0f, 2.0f,  1);
    s[2] = select(1.0f, 2.0f,  0);
}
