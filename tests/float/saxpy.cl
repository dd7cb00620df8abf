// y = a * x + y over an NDRange, with contraction off so that every engine rounds the multiply
// and the add separately.
#pragma OPENCL FP_CONTRACT OFF
kernel void saxpy(global const float *x, global float *y, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
