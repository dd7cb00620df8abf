// expect: E0508
struct S { int a[2]; };
void set(struct S *s) { s->a[0] = 1; }
kernel void k(global int *o) { struct S s; set(&s); o[0] = s.a[0]; }
