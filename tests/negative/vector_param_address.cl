// expect: E0503
void set(int4 *p) { *p = (int4)(1); }
int4 twice(int4 v) { set(&v); return v * 2; }
kernel void k(global int4 *a) { a[0] = twice(a[0]); }
