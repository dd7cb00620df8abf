// c-reference: no (OpenCL vector types and swizzles are not C)
kernel void vec_mix(global const int4 *a, global const int4 *b, global int4 *out, global uchar4 *px, global int *s, int n) {
    for (int i = 0; i < n; i++) {
        int4 x = a[i];
        int4 y = b[i];
        int4 z = x * 3 + y.wzyx - (int4)(1, 2, x.s01);
        z.xy += 7;
        out[i] = z > y ? z : (x & y);
        uchar4 p = px[i];
        px[i] = convert_uchar4_sat(convert_int4(p) * 2 - 100);
        s[i] = any(x < 0) + 2 * all(y > 0) + as_int(p) ;
        int8 w = (int8)(x, y);
        s[n + i] = w.s7 + w.hi.x + min(w, 5).s0 + clamp(x, -3, 3).w + popcount(y).y;
        vstore2(vload2(i, (global int *)a) + 1, i, s + 2 * n);
    }
}
