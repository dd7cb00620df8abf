// valid: ndrange 2d
kernel void k(global int *o) { size_t x = get_global_id(0), y = get_global_id(1); o[y * get_global_size(0) + x] = (int)(x + y); }
