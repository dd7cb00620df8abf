// Helpers that take pointers to struct variables (private, an array element, `__local`, a member
// of another struct, forwarded to further helpers): p->m, (*p).m, p[k].m, whole-struct copies
// through pointers (a swap), pointer arithmetic on the argument. Each such parameter becomes a
// pointer per member, pointed at the argument's members.
// c-reference: no (__local variable)
typedef struct { int x; short y; uchar tag; } P;
typedef struct { P a; P b; int n; } Pair;
typedef union { uint u; uchar b[4]; } W;
void bump(P *p, int by) { p->x += by; (*p).y = (short)(p->y * 2 + by); p->tag ^= (uchar)by; }
void swap(P *a, P *b) { P t = *a; *a = *b; *b = t; }
int sum2(const P *ps) { return ps[0].x + ps[1].x + ps->y; }
void pair_step(Pair *q) { bump(&q->a, q->n); swap(&q->a, &q->b); q->n++; }
void pair_many(Pair *q, int k) { for (int i = 0; i < k; i++) pair_step(q); }
void loc_bump(local P *p) { p->x++; }
kernel void struct_refs(global const int *in, global int *o) {
  P arr[4];
  for (int i = 0; i < 4; i++) { arr[i].x = in[i]; arr[i].y = (short)i; arr[i].tag = (uchar)(i * 3); }
  for (int i = 0; i < 4; i++) bump(&arr[i], in[i] & 7);
  swap(&arr[0], &arr[3]);
  swap(arr + 1, arr + 2);
  Pair q; q.a = arr[0]; q.b = arr[1]; q.n = 3;
  pair_many(&q, 5);
  W w; w.u = (uint)in[0];
  w.b[in[1] & 3] = 0x5a;
  local P lp;
  lp.x = 10;
  loc_bump(&lp);
  o[0] = sum2(arr); o[1] = sum2(&arr[2]);
  o[2] = q.a.x; o[3] = q.b.y; o[4] = q.n; o[5] = q.a.tag;
  o[6] = (int)w.u; o[7] = lp.x;
  for (int i = 0; i < 4; i++) o[8 + i] = arr[i].x * 3 + arr[i].y + arr[i].tag;
}
