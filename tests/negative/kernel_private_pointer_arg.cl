// expect: E0408
kernel void k(private int *o) { o[0] = 1; }
