// Helper functions that return vectors (from several return statements, of 3- and 4-lane
// types), called in expressions and nested calls, and vector variables whose address is taken
// (`&v` to helpers that update `*p` and one of its lanes), which kiln keeps in private
// memory instead of splitting into lanes. (The address of one lane, `&v.w`, is not OpenCL C.)
// c-reference: no (vector types)
int4 twist(int4 v, int k) {
    if (k & 1)
        return v.wzyx + k;
    return (int4)(v.x * k, v.y, v.z ^ k, v.w);
}

uchar3 rgb(uint p) { return (uchar3)(p >> 16, p >> 8, p); }

void bump(int4 *p, int k) {
    *p += k;
    (*p).y = k;
}

void set_w(int4 *p, int v) { (*p).w = v; }

kernel void vec_helpers(global int4 *io, global uchar *px, int n) {
    for (int i = 0; i < n; i++) {
        io[i] = twist(io[i], i) + twist((int4)(i), 3).x;
        uchar3 c = rgb((uint)io[i].x);
        px[3 * i] = c.z;
        px[3 * i + 1] = c.y;
        px[3 * i + 2] = rgb(0x123456).x;
        int4 v = io[i];
        bump(&v, i);
        set_w(&v, -i);
        int4 w = v.wzyx;
        v = v.zwxy;
        io[n + i] = v + w;
    }
}
