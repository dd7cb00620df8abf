// expect: E0401
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }  // REJECT: recursion
kernel void k(global int *o) { o[0] = fact(o[1]); }
