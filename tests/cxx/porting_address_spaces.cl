// OpenCL C form of porting_address_spaces.clcpp ("Examples, bad (OpenCL C-style)").
__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void porting_address_spaces(global int *input) {
    local int array[256];
    uint gid = get_global_id(0);
    uint lid = get_local_id(0);
    array[lid] = input[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    input[gid] = array[63 - lid] + gid;
}
