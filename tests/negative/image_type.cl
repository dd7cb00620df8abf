// expect: E0501
kernel void k(read_only image2d_t img) { }
