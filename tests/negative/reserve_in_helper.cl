// expect: E0506
void take(read_only pipe int p, global int *out) {
    reserve_id_t rid = reserve_read_pipe(p, 2);
    if (is_valid_reserve_id(rid)) {
        read_pipe(p, rid, 0, out);
        commit_read_pipe(p, rid);
    }
}
kernel void k(read_only pipe int p, global int *out) { take(p, out); }
