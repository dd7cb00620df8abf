// Generic pointers to structs (OpenCL C 2.0+): helper functions whose unqualified pointer
// parameters every call points into a `__global` buffer, also through another such helper.
// c-reference: no (work-item functions)
// pocl: no (PoCL 3.1 has no generic address space: it reads an unqualified pointer as private)
typedef struct { int x; int y; } P;
void push(P *p, int d) { p->x += d; }
int get(const P *p) { return p->x + p->y; }
void twice(P *p) { push(p, 1); push(p + 1, 2); }
kernel void struct_generic(global P *ps, constant P *cs, global int *o) {
    int i = get_global_id(0);
    twice(&ps[2 * i]);
    o[i] = get(&ps[2 * i]) + cs[i].y;
}
