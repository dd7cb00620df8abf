// expect: E0601
kernel void k(global int *a, global int *b, int n) {
  global int *src = a, *dst = b;
  for (int i = 0; i < n; i++) { dst[0] = src[0]; global int *t = src; src = dst; dst = t; }
}
