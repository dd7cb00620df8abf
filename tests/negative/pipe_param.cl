// expect: E0425
kernel void k(write_only pipe int p, global int *o) { int v; read_pipe(p, &v); o[0] = v; }
