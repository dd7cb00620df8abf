// expect: E0326
int helper(int x);
kernel void k(global int *a) { a[0] = helper(2); }
