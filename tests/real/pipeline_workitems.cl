// Xilinx's `xcl_pipeline_workitems` around an NDRange kernel's body, as its examples write it
// (kiln pipelines the work-items of every NDRange kernel).
__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void pipeline_workitems(__global const int *in, __global int *out, int bias)
{
    __attribute__((xcl_pipeline_workitems)) {
        int g = get_global_id(0);
        out[g] = in[g] * 2 + bias;
    }
}
