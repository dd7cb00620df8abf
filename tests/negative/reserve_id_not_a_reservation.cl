// expect: E0330
kernel void k(read_only pipe int p, global int *out) {
    int rid = 1;
    read_pipe(p, rid, 0, &out[0]);
}
