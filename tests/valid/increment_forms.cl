// valid: increment forms
kernel void k(global int *o) { int i = 0; int a = i++; int b = ++i; int c = i--; int d = --i; o[0] = a + b + c + d; }
