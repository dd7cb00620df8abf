// expect: E0506
kernel void k(read_only pipe int p, global int *out, uint n) {
    reserve_id_t rid = reserve_read_pipe(p, n);
    if (is_valid_reserve_id(rid)) {
        read_pipe(p, rid, 0, &out[0]);
        commit_read_pipe(p, rid);
    }
}
