// expect: E0513
kernel void k(global char *a) { char s[] = "abc"; }
