// Inclusive prefix sum (scan) in place, reading back what it wrote.
kernel void prefix_sum(global int *data, int n) {
    for (int i = 1; i < n; i++)
        data[i] += data[i - 1];
}
