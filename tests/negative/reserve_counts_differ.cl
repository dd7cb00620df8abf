// expect: E0506
kernel void k(write_only pipe int p, global const int *in) {
    reserve_id_t a = reserve_write_pipe(p, 2);
    if (is_valid_reserve_id(a)) {
        write_pipe(p, a, 0, &in[0]);
        write_pipe(p, a, 1, &in[1]);
        commit_write_pipe(p, a);
    }
    reserve_id_t b = reserve_write_pipe(p, 3);
    if (is_valid_reserve_id(b))
        commit_write_pipe(p, b);
}
