// Rows padded to a power of two (`pad-rows`, docs/loops.md): `grid`'s rows of 12 become 16, so
// the unrolled copies of the `j` loop read neighbouring elements from different banks.
// `edges` keeps its rows (a pointer to a row escapes), and `table` (an initializer laid out flat).
kernel void padded_rows(global const int *in, global int *out, int n) {
    int grid[6][12];
    int edges[4][12];
    int table[2][6] = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 12; j++)
            grid[i][j] = in[(i * 12 + j) % n] - j;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 12; j++)
            edges[i][j] = in[(i * 5 + j) % n] * (i + 1);

    for (int i = 0; i < 6; i++) { // expect-loop: achieved_ii=1
        int s = 0;
        for (int j = 1; j < 11; j++)
            s += grid[i][j - 1] * grid[i][j + 1] - grid[i][j];
        out[i] = s + table[i % 2][i % 6];
    }
    for (int i = 0; i < 4; i++) { // expect-loop: achieved_ii=3
        global const int *unused = in;
        int *row = edges[i];
        int s = 0;
        for (int j = 1; j < 11; j++)
            s += row[j - 1] - row[j + 1] + (unused[0] & 1);
        out[6 + i] = s;
    }
}
