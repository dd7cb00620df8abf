// Matrix transpose of an R x C matrix of ushort.
kernel void transpose(global const ushort *in, global ushort *out, int rows, int cols) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[c * rows + r] = in[r * cols + c];
}
