// expect: E0104
#include <stdio.h>
kernel void k(global int *a) { }
