// expect: E0411
reserve_id_t global_rid;
kernel void k(read_only pipe int p) { }
