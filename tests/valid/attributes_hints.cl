// valid: attributes hints
__attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(int4)))
kernel void k(global int *o) { o[get_global_id(0)] = 1; }
