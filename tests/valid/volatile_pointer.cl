// valid: volatile pointer
kernel void k(volatile global int *o) { o[0] = 1; o[0] = 2; }
