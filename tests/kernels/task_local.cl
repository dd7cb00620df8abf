// A single work-item kernel in Intel's style: it never asks for its work-item id and declares
// a `__local` array, which is then an ordinary on-chip memory of the one work-item (no
// work-group size needed). Its loop mixes rarely combined integer features: `ulong16`
// rotates and a reversing shuffle, a packed struct with a `long` at an odd offset read and
// written whole, `mad_sat` and `convert_char_sat` on 64 bits, a union buffer, `long3` helper
// arithmetic with shift counts at and beyond the width, `mul_hi`/`abs_diff` on `long`, and
// atomics on the `__local` counters.
// c-reference: no (atomic built-ins)
typedef struct __attribute__((packed)) { char tag; long v; short s; } Rec;
typedef union { uint u; int s; } Word;

long3 mix3(long3 a, long3 b) { return (a * b) ^ (a >> (long3)(1, 63, 64)); }

kernel void task_local(global ulong16 *w, global Rec *r, global Word *u, global long *out, int n) {
    local int counts[8];
    for (int i = 0; i < 8; i++) counts[i] = 0;
    long acc = 0;
    for (int i = 0; i < n; i++) {
        ulong16 x = w[i];
        ulong16 y = rotate(x, (ulong16)(i * 17)) + shuffle(x, (ulong16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
        w[i] = y;
        Rec t = r[i];
        t.v = mad_sat(t.v, (long)t.tag, (long)t.s);
        t.tag = convert_char_sat(t.v);
        r[i] = t;
        Word q = u[i];
        q.u = q.u ^ (uint)clz(q.s);
        q.s = add_sat(q.s, 0x7fffff00);
        u[i] = q;
        atomic_add(&counts[q.u & 7], 1);
        long3 m = mix3((long3)(t.v, y.s0, y.sf), (long3)(i, -i, n));
        acc += m.x + m.y + m.z + mul_hi(t.v, (long)y.s7) + (long)abs_diff(t.v, -t.v) + (long)popcount(y.s3);
    }
    out[0] = acc;
    for (int i = 0; i < 8; i++) out[1 + i] = atomic_cmpxchg(&counts[i], counts[i], counts[i] * 2);
}
