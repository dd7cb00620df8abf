// Structs and unions with float members: a __constant table of structs, designated
// initializers, a union read as float and as uint, a struct passed by value, sizeof/alignof.
typedef struct { int x; char c; short s; float f; } P;
struct Q { P p[2]; int4 v; union { float f; uint u; } un; };
struct __attribute__((packed)) Pk { char a; int b; };
struct __attribute__((aligned(16))) Al { char a; };
constant P table[2] = { { 1, 2, 3, 4.0f }, { .x = 10, .f = 0.5f } };
int sum(P a) { return a.x + a.c + a.s; }
kernel void records(global int *o) {
    P a = { 1, 2, 3, 4.0f };
    P b = { .f = 1.5f, .x = 7 };
    struct Q q;
    q.p[1] = a;
    q.p[0] = table[1];
    q.un.f = 1.0f;
    q.v = (int4)(5, 6, 7, 8);
    o[0] = sizeof(P); o[1] = sizeof(struct Q); o[2] = sizeof(struct Pk); o[3] = sizeof(struct Al);
    o[4] = __alignof__(struct Q);
    o[5] = q.p[1].x + b.x;
    o[6] = q.un.u;
    o[7] = sum(q.p[1]) + table[0].s + q.p[0].x + q.v.w;
    P arr[4];
    for (int i = 0; i < 4; i++) { arr[i].x = i * 3; arr[i].c = (char)i; }
    int t = 0;
    for (int i = 0; i < 4; i++) t += arr[i].x * arr[3 - i].c;
    o[8] = t;
    union { float f; uint u; } un2 = { 2.0f };
    o[9] = un2.u;
    un2.u = 0x3f800000; 
    o[10] = (int)(un2.f * 3.0f);
}
