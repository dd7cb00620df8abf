// OpenCL C form of porting_function_template.clcpp: one helper per type.
void function_template_uint(global uint *input, uint size) {
    for (uint i = 0; i < size; ++i) input[i] = input[i] * 3 + 1;
}

void function_template_float(global float *input, uint size) {
    for (uint i = 0; i < size; ++i) input[i] = input[i] * 0.5f;
}

kernel void kernel_uint(global uint *input, uint size) { function_template_uint(input, size); }

kernel void kernel_float(global float *input, uint size) { function_template_float(input, size); }
