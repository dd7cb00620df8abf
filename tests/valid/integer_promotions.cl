// valid: integer promotions
kernel void k(global int *o) { uchar a = 200, b = 100; short s = -3; o[0] = a + b + s; }
