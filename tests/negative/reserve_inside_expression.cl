// expect: E0506
kernel void k(read_only pipe int p, global int *out) {
    if (is_valid_reserve_id(reserve_read_pipe(p, 2)))
        out[0] = 1;
}
