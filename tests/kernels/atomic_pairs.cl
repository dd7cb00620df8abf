// Two atomic updates of the same counter in one iteration, and counters that consecutive
// iterations hit again and again: a pipelined loop must finish each read-modify-write before
// the next one reads. `#pragma ivdep` does not apply to memory updated atomically.
// c-reference: no (atomic built-ins)
kernel void atomic_pairs(global const uchar *keys, global int *counts, global int *maxes, int n) {
    #pragma ivdep
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=true achieved_ii=6 rec_mii=6
        int k = keys[i] & 3;
        atomic_add(&counts[k], 1);
        atomic_sub(&counts[k], (int)keys[i]);
        atomic_max(&maxes[(i * 3) & 3], keys[i] - 100);
    }
}
