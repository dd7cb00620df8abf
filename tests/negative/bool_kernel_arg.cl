// expect: E0408
kernel void k(bool b) { }
