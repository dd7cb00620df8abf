// Bitonic sort of 16-element blocks in __local memory: log2(16)*(log2(16)+1)/2 = 10
// compare-exchange phases separated by barriers, each work-item owning one element pair.
// c-reference: no (barriers: work-items cannot run one after another in C)
#define N 16
__attribute__((reqd_work_group_size(N / 2, 1, 1)))
kernel void bitonic_local(global int *data) {
    local int v[N];
    size_t lid = get_local_id(0);
    size_t base = get_group_id(0) * N;
    v[2 * lid] = data[base + 2 * lid];
    v[2 * lid + 1] = data[base + 2 * lid + 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint size = 2; size <= N; size <<= 1) {
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            uint pos = 2 * lid - (lid & (stride - 1));
            bool up = ((pos & size) == 0);
            int a = v[pos], b = v[pos + stride];
            if ((a > b) == up) {
                v[pos] = b;
                v[pos + stride] = a;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    data[base + 2 * lid] = v[2 * lid];
    data[base + 2 * lid + 1] = v[2 * lid + 1];
}
