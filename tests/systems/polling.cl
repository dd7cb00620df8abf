// A fast producer and a consumer that polls with non-blocking reads through a shallow FIFO
// (Xilinx program-scope pipe): the producer is held back by the full FIFO, and the consumer
// counts the polls that found the pipe empty without losing or reordering packets.
pipe int stream __attribute__((xcl_reqd_pipe_depth(2)));

kernel void producer(global const int *in, int n) {
    for (int i = 0; i < n; i++) {
        int v = in[i];
        write_pipe_block(stream, &v);
    }
}

kernel void consumer(global int *out, global int *empty_polls, int n) {
    int got = 0;
    int misses = 0;
    while (got < n) {
        int v;
        if (read_pipe(stream, &v) == 0) {
            out[got] = v - 7;
            got++;
        } else {
            misses++;
        }
    }
    empty_polls[0] = misses >= 0;
}
