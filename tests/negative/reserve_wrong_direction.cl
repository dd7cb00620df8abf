// expect: E0425
kernel void k(read_only pipe int p) {
    reserve_id_t rid = reserve_write_pipe(p, 2);
}
