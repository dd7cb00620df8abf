pipe int p0 __attribute__((xcl_reqd_pipe_depth(32)));
pipe int p1 __attribute__((xcl_reqd_pipe_depth(32)));

kernel void producer(global const int *in, int n) {
    for (int i = 0; i < n; i++) {
        int v = in[i];
        write_pipe_block(p0, &v);
    }
}

kernel void compute(int n) {
    for (int i = 0; i < n; i++) {
        int x;
        read_pipe_block(p0, &x);
        int y = x * 3 + 1;
        write_pipe_block(p1, &y);
    }
}

kernel void consumer(global int *out, int n) {
    for (int i = 0; i < n; i++) {
        int v;
        read_pipe_block(p1, &v);
        out[i] = v;
    }
}
