// Unions whose members have different shapes (a word, its bytes, a short2; a byte, a long and
// a struct) in private variables, arrays and struct members: kiln stores such a union as its
// bytes, so every member reads and writes its own bytes, as in OpenCL's layout. Copies of whole
// unions between buffers and variables move every byte, also when the first member is smaller
// than the union. Brace and designated initializers (one with a side effect, evaluated once),
// a vector lane of a member written with +=.
// c-reference: no (vector members)
typedef union { uint u; uchar b[4]; short2 h; } W;
typedef struct { int tag; W w; ushort n[2]; } S;  // no padding: a copy of padding is unspecified
typedef union { uchar c; ulong l; struct { ushort lo; uchar mid; } parts; } U;
kernel void unions_mixed(global W *w, global S *ss, global U *us, global uint *o) {
  W arr[4];
  for (int i = 0; i < 4; i++) {
    W q = w[i];
    q.b[i & 3] = (uchar)(q.b[(i + 1) & 3] + 1);
    q.h.y += 3;
    arr[i] = q;
    w[i] = q;
  }
  W init = { .b = { 1, 2, 3, 4 } };
  W init2 = { 0x11223344u };
  o[0] = init.u; o[1] = init2.b[1] | (init2.h.x << 8);
  for (int i = 0; i < 4; i++) o[2 + i] = arr[3 - i].u ^ arr[i].h.x;
  S s = ss[1];
  s.w.b[2] ^= s.tag;
  s.n[1] = s.w.h.x;
  ss[0] = s;
  U u = us[0];
  u.parts.mid = 7;
  u.c++;
  us[1] = u;
  o[6] = (uint)u.l; o[7] = (uint)(u.l >> 32); o[8] = u.parts.lo;
  uint counter = w[2].u;
  W bumped = { counter++ * 3u };
  o[9] = bumped.b[0] + (bumped.h.y << 8) + counter;
}
