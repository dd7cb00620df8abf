// valid: static helper
static int twice(int x) { return 2 * x; }
inline int thrice(int x) { return 3 * x; }
kernel void k(global int *o) { o[0] = twice(1) + thrice(2); }
