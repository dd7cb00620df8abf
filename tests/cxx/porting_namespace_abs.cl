// OpenCL C form of porting_namespace_abs.clcpp.
kernel void porting_namespace_abs(global int *input, uint size) {
    uint global_id = get_global_id(0);
    if (global_id < size) input[global_id] = abs(input[global_id]);
}
