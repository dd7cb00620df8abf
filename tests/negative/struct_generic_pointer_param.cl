// expect: E0508
struct S { int a; };
void set(struct S *s) { s->a = 1; }
kernel void k(global int *o) { struct S s; set(&s); o[0] = s.a; }
