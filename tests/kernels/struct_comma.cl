// A struct value as a discarded operand of `,` (`(s, x)`) computes nothing, as a statement `s;` does.
typedef struct { int lo; int hi; } R;
kernel void struct_comma(global int *o, int n) {
  R acc = { n, n + 1 };
  int x = (acc, n * 2);
  (acc, x & 1);
  o[0] = x + acc.hi;
}
