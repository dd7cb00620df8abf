// Helpers that return structs and unions: a result assigned to a variable, to a buffer element
// and discarded, a helper returning another helper's result or its own parameter, a union of
// mixed members returned. The caller passes the address of a temporary for each element of
// the result. The struct has no padding, whose bytes a copy leaves unspecified.
// c-reference: no (struct buffers)
typedef struct { int lo; int hi; uchar n; char k; short s; } R;
typedef union { uint u; uchar b[4]; } W;
R minmax(int a, int b) { R r; r.lo = min(a, b); r.hi = max(a, b); r.n = a < b; r.k = -7; r.s = (short)(a ^ b); return r; }
R widen(R r, int by) { if (by == 0) return r; return minmax(r.lo - by, r.hi + by); }
W bytes_of(uint x) { W w; w.u = x; uchar t = w.b[0]; w.b[0] = w.b[3]; w.b[3] = t; return w; }
kernel void struct_return(global int *in, global R *out, global uint *o, int n) {
  R acc = minmax(in[0], in[1]);
  for (int i = 2; i < n; i++) {
    R m = minmax(in[i], acc.lo);
    acc.lo = m.lo;
    acc = widen(acc, i & 1);
    out[i] = minmax(in[i], in[i - 1]);
  }
  out[0] = acc;
  minmax(1, 2);
  W w = bytes_of((uint)in[0]);
  o[0] = w.u; W v = bytes_of(w.u); o[1] = v.b[1];
}
