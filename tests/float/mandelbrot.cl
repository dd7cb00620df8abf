// Escape-time iteration counts of the Mandelbrot set: a data-dependent loop on floats.
#pragma OPENCL FP_CONTRACT OFF
kernel void mandelbrot(global int *counts, float x0, float y0, float step, int max_iter) {
    int px = get_global_id(0), py = get_global_id(1);
    float cr = x0 + px * step, ci = y0 + py * step;
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        k++;
    }
    counts[py * get_global_size(0) + px] = k;
}
