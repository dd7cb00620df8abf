// expect: E0401
int odd(int n);
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
kernel void k(global int *o) { o[0] = even(4); }
