// c-reference: no (OpenCL vector types and swizzles are not C)
// Vector logical and relational operators give -1/0 per lane, `?:` with a vector condition
// selects lane by lane on the most significant bit, shifts take their counts per lane modulo
// the element width, and 3-element vectors occupy 4 elements in buffers (read here as `int3`
// buffers; written with `vstore3`, since the fourth element of a stored `int3` is undefined).
kernel void vec_logic(global const int3 *a, global const char3 *c, global int *o3, global short8 *o8, global uint *s, int n) {
    for (int i = 0; i < n; i++) {
        int3 x = a[i];
        int3 y = a[n - 1 - i];
        vstore3((x && y) + 2 * (x || !y) + 4 * (x != y) + ~x, i, o3);
        vstore3((x < y) ? x >> (y & 7) : y << x, n + i, o3);
        char3 ch = c[i];
        short8 w = (short8)(convert_short3(ch), convert_short3(ch.zyx) * (short)i, (short2)(-1));
        o8[i] = (w >= (short)0) ^ (w << (short8)(1, 2, 15, 16, 17, 0, -1, 3));
        o8[n + i] = !w + (w > (short)2 ? w : -w);
        uint3 u = as_uint3(x);
        s[i] = u.x >> 31 | (u.y >> (u.z & 31)) << 1;
        s[n + i] = (uint)any(ch < (char)0) | (uint)all(x > y) << 1 | (uint)any(w == (short)0) << 2;
    }
}
