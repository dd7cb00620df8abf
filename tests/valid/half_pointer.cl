// valid: a pointer to `half` data (storage-only, without cl_khr_fp16)
kernel void k(global half *p, global float *o) { o[0] = 1.0f; }
