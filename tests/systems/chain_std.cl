kernel void producer(global const int *in, int n, write_only pipe int p) {
    for (int i = 0; i < n; i++) {
        int v = in[i];
        while (write_pipe(p, &v) != 0) { }
    }
}

kernel void compute(int n, read_only pipe int p, write_only pipe int q) {
    for (int i = 0; i < n; i++) {
        int x;
        while (read_pipe(p, &x) != 0) { }
        int y = x * 3 + 1;
        while (write_pipe(q, &y) != 0) { }
    }
}

kernel void consumer(global int *out, int n, read_only pipe int q) {
    for (int i = 0; i < n; i++) {
        int v;
        while (read_pipe(q, &v) != 0) { }
        out[i] = v;
    }
}
