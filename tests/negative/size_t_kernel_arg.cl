// expect: E0408
kernel void k(size_t n) { }
