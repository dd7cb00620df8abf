// The OpenCL C twin of lib_saxpy.clcpp.
kernel void lib_saxpy(global const float *x, global float *y, float a) {
    size_t i = get_global_id(0);
    y[i] = fma(a, x[i], y[i]) + fabs(x[i]) * 0.5f;
}
