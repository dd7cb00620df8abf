// OpenCL C form of porting_pipes.clcpp: pipe parameters and a Xilinx program-scope pipe.
pipe int scaled_values __attribute__((xcl_reqd_pipe_depth(16)));

kernel void producer(global const int *in, int n, write_only pipe int wp) {
    for (int i = 0; i < n; i++) {
        int val = in[i];
        while (write_pipe(wp, &val) != 0) {
        }
    }
}

kernel void scaler(int n, read_only pipe int rp) {
    for (int i = 0; i < n; i++) {
        int val;
        while (read_pipe(rp, &val) != 0) {
        }
        int s = val * 5 - 2;
        while (write_pipe(scaled_values, &s) != 0) {
        }
    }
}

kernel void consumer(global int *out, int n) {
    for (int i = 0; i < n; i++) {
        int v;
        while (read_pipe(scaled_values, &v) != 0) {
        }
        out[i] = v;
    }
}
