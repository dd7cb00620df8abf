// OpenCL 2.0 pipe reservations: the producer reserves room for four packets, fills the
// reservation back to front and commits it; the consumer reserves four packets, reads them in
// reverse order and commits. Both retry until their reservation is valid, so the result does not
// depend on timing: `out` is `in` reversed in groups of four. The consumer also reports what the
// queries and a read outside its reservation give.
kernel void producer(global const int *in, int n, write_only pipe int p) {
    for (int i = 0; i < n; i += 4) {
        reserve_id_t rid;
        do {
            rid = reserve_write_pipe(p, 4);
        } while (!is_valid_reserve_id(rid));
        for (int k = 3; k >= 0; k--)
            write_pipe(p, rid, k, &in[i + k]);
        commit_write_pipe(p, rid);
    }
}

kernel void consumer(global int *out, global int *facts, int n, read_only pipe int p) {
    reserve_id_t rid = CLK_NULL_RESERVE_ID;
    facts[0] = is_valid_reserve_id(rid);
    for (int i = 0; i < n; i += 4) {
        rid = reserve_read_pipe(p, 4);
        while (!is_valid_reserve_id(rid))
            rid = reserve_read_pipe(p, 4);
        for (int k = 0; k < 4; k++)
            read_pipe(p, rid, 3 - k, &out[i + k]);
        commit_read_pipe(p, rid);
    }
    int x = 7;
    facts[1] = read_pipe(p, rid, 4, &x);       // outside the reservation: -1, x unchanged
    facts[2] = x;
    facts[3] = get_pipe_max_packets(p);        // the FIFO's depth
    facts[4] = get_pipe_num_packets(p);        // every packet has been taken: 0
}
