// expect: E0506
kernel void k(read_only pipe int p, global int *out) {
    reserve_id_t rid = work_group_reserve_read_pipe(p, get_local_size(0));
    if (is_valid_reserve_id(rid)) {
        read_pipe(p, rid, get_local_id(0), &out[get_global_id(0)]);
        work_group_commit_read_pipe(p, rid);
    }
}
