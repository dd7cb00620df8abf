// T23: pipe reservations (checklist §5), with the writer the checklist describes: it sends
// 0, 1, 2, 3, 4, 5; the reader reserves three packets and reads the third.
// The result depends on the writer being done before the reservation is tried (a reservation
// that finds fewer than three packets fails, and `out` keeps its 0): the emulator runs the
// writer's launch first, the hardware runs both at once, so only the emulator is checked here;
// `tests/systems/reservation.cl` checks reservations in every engine.
// engines: emu
// expect out = [2]
kernel void writer(write_only pipe int p) {
    for (int i = 0; i < 6; i++)
        while (write_pipe(p, &i) != 0) { }
}

kernel void t23(read_only pipe int p, global int *out) {
    int val;
    reserve_id_t rid = reserve_read_pipe(p, 3);
    if (is_valid_reserve_id(rid)) {
        if (read_pipe(p, rid, 2, &val) == 0)     // 3rd packet of this reservation
            out[get_global_id(0)] = val;
        commit_read_pipe(p, rid);                 // removes all 3 reserved packets
    }
}
