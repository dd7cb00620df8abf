// expect: E0506
kernel void k(read_only pipe int p) { }
