// valid: restrict pointers
kernel void k(global int *restrict a, global const int *restrict b) { a[0] = b[0]; }
