// expect: E0425
kernel void k(read_write pipe int p) {}             // REJECT: read_write pipe
