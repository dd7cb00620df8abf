// valid: sizeof types
kernel void k(global int *o) { o[0] = sizeof(char) + sizeof(short) + sizeof(int) + sizeof(long) + sizeof(int4) + sizeof(size_t); }
