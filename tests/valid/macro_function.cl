// valid: macro function
#define SQUARE(x) ((x) * (x))
#define CAT(a, b) a##b
kernel void k(global int *o) { int CAT(v, 1) = SQUARE(3); o[0] = v1; }
