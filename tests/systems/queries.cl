// get_pipe_num_packets and get_pipe_max_packets: the consumer waits, in a loop pipelined at
// II = 1 that asks the FIFO's fill level every cycle, until three packets are there, then takes
// them. What it computes does not depend on timing; how long it polls does, so the simulator
// and Verilator agreeing on the cycle count shows they see the same fill levels.
kernel void producer(global const int *in, int n, write_only pipe int p) {
    for (int i = 0; i < n; i++)
        while (write_pipe(p, &in[i]) != 0) { }
}

kernel void consumer(global int *out, global int *facts, int n, read_only pipe int p) {
    int polls = 0;
    for (int i = 0; i < n; i += 3) {
        while (get_pipe_num_packets(p) < 3)
            polls++;
        for (int k = 0; k < 3; k++) {
            int v;
            read_pipe(p, &v);
            out[i + k] = v;
        }
    }
    facts[0] = polls >= 0;
    facts[1] = get_pipe_max_packets(p);
}
