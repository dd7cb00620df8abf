// valid: macro stringize ifdef
#define NAME(x) #x
#ifdef __OPENCL_VERSION__
#define OK 1
#else
#define OK 0
#endif
kernel void k(global int *o) { o[0] = OK; }
