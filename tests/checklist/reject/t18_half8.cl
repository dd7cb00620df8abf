// expect: E0411 E0502
half8 h8;                       // REJECT without cl_khr_fp16
