// expect: E0111 E0206 E0206
#define F(x) x
kernel void k(global int *o) { o[0] = F(1; }
