// expect: E0425
void send(write_only pipe int p, int v) { write_pipe(p, &v); }
kernel void k(read_only pipe int p) { send(p, 1); }
