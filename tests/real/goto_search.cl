// A 2-D search that leaves both loops with `goto`, a per-row `goto` that skips the rest of a
// row (its label inside the outer loop), and a `goto` out of a `switch`, in the style of
// hand-written C ported to OpenCL.
#define ROWS 8
#define COLS 16

__kernel void goto_search(__global const int *grid, __global int *found, __global int *row_firsts, int key)
{
    int r = -1, c = -1;
    for (int i = 0; i < ROWS; i++) {
        for (int j = 0; j < COLS; j++) {
            if (grid[i * COLS + j] == key) {
                r = i;
                c = j;
                goto found_it;
            }
        }
    }
    r = ROWS;
    c = 0;
found_it:
    found[0] = r;
    found[1] = c;

    for (int i = 0; i < ROWS; i++) {
        int first = -1;
        for (int j = 0; j < COLS; j++) {
            int v = grid[i * COLS + j];
            switch (v & 3) {
            case 0:
                break;
            case 3:
                if (v > key) {
                    first = j;
                    goto next_row;
                }
                break;
            default:
                if (v == key + 1) {
                    first = 100 + j;
                    goto next_row;
                }
            }
        }
        first = first - 1;
    next_row:
        row_firsts[i] = first;
    }
}
