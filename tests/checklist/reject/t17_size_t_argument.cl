// expect: E0408
kernel void k4(size_t n) { }                               // REJECT: size_t kernel argument
