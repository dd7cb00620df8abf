// Compound literals: a struct passed by value, an array indexed in place, designated members, and
// a sized array, each made fresh in every iteration.
typedef struct { int a; int b; } pair;
int sum(pair p) { return p.a + p.b; }
__kernel void k(__global const int *in, __global int *o) {
    for (int i = 0; i < 4; i++) {
        o[i] = sum((pair){in[i], 2 * i});
        o[4 + i] = ((int[]){5, 6, 7, in[i]})[3 - (i & 3)];
        pair q = (pair){.b = i};
        o[8 + i] = q.a + q.b + ((int[4]){1, 2, 3, 4})[i];
    }
}
