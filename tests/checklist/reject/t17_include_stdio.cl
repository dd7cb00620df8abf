// expect: E0104
#include <stdio.h>                                         // REJECT: C99 headers not available
kernel void k(global int *a) { a[0] = 1; }
