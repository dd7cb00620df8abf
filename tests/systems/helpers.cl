// OpenCL 2.0 pipe parameters of helper functions: helpers are inlined, so a helper's pipe is
// its caller's; `send` is called through another helper, `take` spins until a packet is there
// (built as a blocking read), and a helper asks the pipe's depth.
void send(write_only pipe int p, int v) {
    while (write_pipe(p, &v) != 0) { }
}

void send_twice(write_only pipe int p, int v) {
    send(p, v);
    send(p, -v);
}

int take(read_only pipe int p) {
    int v = 0;
    while (read_pipe(p, &v) != 0) { }
    return v;
}

uint depth_of(read_only pipe int p) {
    return get_pipe_max_packets(p);
}

kernel void producer(global const int *in, int n, write_only pipe int p) {
    for (int i = 0; i < n; i++)
        send_twice(p, in[i] + 1);
}

kernel void consumer(global int *out, global uint *depth, int n, read_only pipe int p) {
    for (int i = 0; i < n; i++)
        out[i] = take(p) + 2 * take(p);
    depth[0] = depth_of(p);
}
