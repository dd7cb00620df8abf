// valid: constant table
constant int table[4] = {1, 2, 4, 8};
kernel void k(global int *o, int i) { o[0] = table[i & 3]; }
