// The OpenCL C twin of lib_functors_templates.clcpp.
kernel void lib_functors_templates(global float *data, global float *result, global int *iout, uint n) {
    float sum = 0.0f;
    for (uint i = 0; i < n; ++i) sum += data[i];
    result[0] = sum;
    int a[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; ++i) a[i] += 3;
    int k = (int)n;
    iout[0] = a[0] + a[3] + 32 + 120 + (2 * k + 1) + ((10 - 1) + 1);
    iout[1] = 720;
    result[1] = sqrt(fabs(data[0])) + min(data[1], data[2]);
    iout[2] = (int)get_global_size(0) + (int)get_local_size(0);
}
