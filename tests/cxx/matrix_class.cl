// The OpenCL C twin of matrix_class.clcpp: the same products, written with structs.
typedef struct { int m[4][4]; } Mat4;
typedef struct { int m[4][1]; } Vec4;

kernel void matrix_class(__global const int *in, __global int *out) {
    Mat4 a;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) a.m[i][j] = in[i * 4 + j];
    Mat4 b = {{{0}}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            int s = 0;
            for (int k = 0; k < 4; ++k) s += a.m[i][k] * a.m[k][j];
            b.m[i][j] = s;
        }
    Mat4 I = {{{0}}};
    for (int i = 0; i < 4 && i < 4; ++i) I.m[i][i] = 1;
    Mat4 c = {{{0}}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            int s = 0;
            for (int k = 0; k < 4; ++k) s += b.m[i][k] * I.m[k][j];
            c.m[i][j] = s;
        }
    Vec4 v;
    for (int i = 0; i < 4; ++i) v.m[i][0] = in[16 + i];
    Vec4 w = {{{0}}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 1; ++j) {
            int s = 0;
            for (int k = 0; k < 4; ++k) s += a.m[i][k] * v.m[k][j];
            w.m[i][j] = s;
        }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) out[i * 4 + j] = c.m[i][j];
    for (int i = 0; i < 4; ++i) out[16 + i] = w.m[i][0];
    int ta = 0;
    for (int i = 0; i < 4 && i < 4; ++i) ta += a.m[i][i];
    int tb = 0;
    for (int i = 0; i < 4 && i < 4; ++i) tb += b.m[i][i];
    out[20] = ta + tb;
}
