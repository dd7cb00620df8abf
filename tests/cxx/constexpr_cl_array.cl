// The OpenCL C twin of constexpr_cl_array.clcpp: the tables written out as __constant structs.
typedef struct { int e[16]; } Squares;
typedef struct { int v[8]; } Lut;
__constant Squares kSquares = {{0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225}};
__constant Lut kLut = {{100, 99, 98, 97, 96, 95, 94, 93}};

kernel void constexpr_cl_array(global const uint *in, global int *out) {
    for (int i = 0; i < 8; ++i) out[i] = kSquares.e[in[i] % 16U] + kLut.v[in[i] & 7];
}
