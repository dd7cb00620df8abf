// valid: typedef chain
typedef int count_t;
typedef count_t total_t;
kernel void k(global total_t *o) { total_t t = 3; o[0] = t; }
