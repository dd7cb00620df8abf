// valid: line directive
#line 100 "renamed.cl"
kernel void k(global int *o) { o[0] = __LINE__; }
