// valid: a `__local` pointer kernel parameter
kernel void k(global int *a, local int *scratch) { }
