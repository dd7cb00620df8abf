// expect: E0426
kernel void k6(global half *p) { half x; x = *p; }         // REJECT without cl_khr_fp16 (use vload_half)
