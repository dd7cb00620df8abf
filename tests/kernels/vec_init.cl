// c-reference: no (OpenCL vector types and swizzles are not C)
// Vector initializers: braces, literals and splats, in private variables, private arrays and
// __constant program-scope data.
constant int4 table[3] = { (int4)(1, 2, 3, 4), (int4)(7), {9, 8, 7, 6} };
constant short2 one = (short2)(5, -6);
kernel void vec_init(global int *o) {
    int4 v = {1, 2, 3, 4};
    int3 w = {10, 20, 30};
    int4 arr[2] = { (int4)(100), { 5, 6, 7, 8 } };
    for (int i = 0; i < 3; i++) {
        int4 t = table[i] + v + arr[i & 1];
        o[4 * i] = t.x; o[4 * i + 1] = t.y; o[4 * i + 2] = t.z; o[4 * i + 3] = t.w;
    }
    o[12] = w.x + w.y + w.z + one.y;
}
