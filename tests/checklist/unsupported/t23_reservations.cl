// expect: E0506
// not yet: pipe reservations
kernel void t23(read_only pipe int p, global int *out) {
    int val;
    reserve_id_t rid = reserve_read_pipe(p, 3);
    if (is_valid_reserve_id(rid)) {
        if (read_pipe(p, rid, 2, &val) == 0)
            out[get_global_id(0)] = val;
        commit_read_pipe(p, rid);
    }
}
