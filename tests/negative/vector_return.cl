// expect: E0503
int4 twice(int4 v) { return v * 2; }
kernel void k(global int4 *a) { a[0] = twice(a[0]); }
