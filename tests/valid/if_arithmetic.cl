// valid: if arithmetic
#if (3 * 4 > 10) && defined(CL_VERSION_1_2) && !defined(UNDEFINED_THING)
#define V 1
#else
#define V 2
#endif
kernel void k(global int *o) { o[0] = V; }
