// valid: xilinx pipeline
kernel void k(global int *o, int n) { __attribute__((xcl_pipeline_loop(1))) for (int i = 0; i < n; i++) o[i] = i * i; }
