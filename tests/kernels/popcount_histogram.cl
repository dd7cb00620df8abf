// Every work-item counts the set bits of its word and increments that bin of a global
// histogram with atomic_inc; a second histogram of the low nibble uses atomic_add of the word's
// byte count. Consecutive work-items hit the same bins.
// c-reference: no (atomic built-ins)
kernel void popcount_histogram(global const uint *words, volatile global uint *by_bits,
                               volatile global uint *by_nibble) {
    uint w = words[get_global_id(0)];
    atomic_inc(&by_bits[popcount(w)]);
    atomic_add(&by_nibble[w & 15], (w >> 24) + 1);
}
