// A Xilinx-style vector add as the vendor examples write it: every loop labelled, the
// annotations before the labels, burst-style read/compute/write loops over local buffers.
#define BUFFER_SIZE 64

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void vadd_labelled(__global const int *a, __global const int *b, __global int *c, const int n_elements)
{
    int arrayA[BUFFER_SIZE] __attribute__((xcl_array_partition(cyclic, 2, 1)));
    int arrayB[BUFFER_SIZE];
    int result[BUFFER_SIZE];

    for (int i = 0; i < n_elements; i += BUFFER_SIZE) {
        int size = BUFFER_SIZE;
        if (i + size > n_elements)
            size = n_elements - i;

        __attribute__((xcl_pipeline_loop(1)))
        __attribute__((xcl_loop_tripcount(64, 64)))
    readA:
        for (int j = 0; j < size; j++)
            arrayA[j] = a[i + j];

        __attribute__((xcl_pipeline_loop(1)))
    readB:
        for (int j = 0; j < size; j++)
            arrayB[j] = b[i + j];

        __attribute__((xcl_pipeline_loop(1)))
    vadd_loop:
        for (int j = 0; j < size; j++)
            result[j] = arrayA[j] + arrayB[j];

    writeC:
        #pragma unroll 2
        for (int j = 0; j < size; j++)
            c[i + j] = result[j];
    }
}
