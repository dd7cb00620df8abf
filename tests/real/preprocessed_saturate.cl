# 1 "saturate.cl"
# 1 "<built-in>" 1
# 1 "<built-in>" 3
# 1 "<command line>" 1
# 1 "<built-in>" 2
# 1 "saturate.cl" 2
// Preprocessed output as `cpp` or `clang -E` writes it, with its line markers (some build
// flows hand the device compiler the preprocessed file), and an unknown vendor pragma, which
// kiln ignores with a note.
# 1 "./params.h" 1
# 8 "saturate.cl" 2
#pragma acme_vectorize enable

__kernel void preprocessed_saturate(__global const short *in, __global uchar *out, int gain)
{
    int i = get_global_id(0);
    int v = (in[i] * gain) >> 4;
    out[i] = (uchar)(v < 0 ? 0 : (v > 255 ? 255 : v));
}
