// Structs and unions in private, __local and __constant memory: nested records, arrays of
// records (one memory per member), designated initializers, whole-record copies, a record
// passed by value to a helper, a union read through both members, sizeof/alignof with padding,
// `packed` and `aligned`.
// c-reference: no (OpenCL vector types, barriers and work-item functions)
typedef struct { int x; char c; short s; uint w; } P;
struct Q { P p[2]; int4 v; union { int i; uint u; } un; };
struct __attribute__((packed)) Pk { char a; int b; };
struct __attribute__((aligned(16))) Al { char a; };
struct Pair { short lo; short hi; };
constant P table[3] = { { 1, 2, 3, 4 }, { .x = 10, .w = 50 }, { -1, -2, -3, 0xffffffffu } };
int weigh(P a, struct Pair q) { return a.x * 100 + a.c * 10 + a.s + q.lo - q.hi; }
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void structs(global const int *in, global int *out) {
    local struct Pair shared[4];
    int g = get_global_id(0), l = get_local_id(0);
    shared[l].lo = (short)(in[g] + l);
    shared[l].hi = (short)(in[g] * 3 - l);
    barrier(CLK_LOCAL_MEM_FENCE);
    struct Pair mine = shared[3 - l];
    P a = { in[g], (char)in[g + 8], (short)(in[g] * 3), (uint)g };
    P b = { .w = 7, .x = -5 };
    struct Q q;
    q.p[1] = a;
    q.p[0] = table[g % 3];
    q.v = (int4)(g, 2 * g, 3 * g, 4 * g);
    q.un.i = -in[g];
    P arr[4];
    for (int i = 0; i < 4; i++) { arr[i].x = i * 3 + g; arr[i].c = (char)(i - g); arr[i].s = 0; arr[i].w = 0; }
    int t = 0;
    for (int i = 0; i < 4; i++) t += arr[i].x * arr[3 - i].c;
    out[g * 8 + 0] = sizeof(P) * 1000000 + sizeof(struct Q) * 10000 + sizeof(struct Pk) * 100 + sizeof(struct Al);
    out[g * 8 + 1] = __alignof__(struct Q) + q.p[1].x + b.x + (int)b.w;
    out[g * 8 + 2] = (int)(q.un.u >> 4);
    out[g * 8 + 3] = weigh(q.p[1], mine) + q.p[0].s + q.v.w;
    out[g * 8 + 4] = t;
    out[g * 8 + 5] = (int)q.p[0].w + q.p[0].c;
    out[g * 8 + 6] = mine.lo * 1000 + mine.hi;
    out[g * 8 + 7] = (int)q.p[1].w;
}
