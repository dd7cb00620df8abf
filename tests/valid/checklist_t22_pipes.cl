// valid: checklist T22, the standard non-blocking pipe API between two kernels
kernel void producer(global const int *in, write_only pipe int p) {
    int v = in[get_global_id(0)];
    while (write_pipe(p, &v) != 0) ;
}
kernel void consumer(read_only pipe int p, global int *out) {
    int v;
    while (read_pipe(p, &v) != 0) ;
    out[get_global_id(0)] = v;
}
