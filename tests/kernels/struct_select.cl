// Struct- and union-valued conditional expressions: the running best record of a loop, a copy
// into a buffer that picks a variable or another buffer element, a union chosen by a byte of
// each. Each element of the copy takes the chosen side's value (the condition has no side
// effects). The struct has no padding, whose bytes a copy leaves unspecified.
// c-reference: no (struct buffers)
typedef struct { int x; short y; uchar t[2]; } P;
typedef union { uint u; uchar b[4]; } W;
kernel void struct_select(global P *ps, global W *ws, global int *o, int n) {
  P best = ps[0];
  for (int i = 1; i < n; i++) {
    P c = ps[i];
    best = c.x > best.x ? c : best;
  }
  ps[0] = n > 2 ? best : ps[1];
  W a = ws[0], b = ws[1];
  W m = a.b[0] < b.b[0] ? a : b;
  ws[2] = (n & 1) ? m : ws[3];
  o[0] = best.x; o[1] = best.y; o[2] = best.t[1]; o[3] = m.u;
}
