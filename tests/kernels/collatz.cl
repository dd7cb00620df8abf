// Collatz sequence lengths: a while loop with a data-dependent trip count and 64-bit state.
kernel void collatz(global const uint *start, global uint *steps, int n) {
    for (int i = 0; i < n; i++) {
        ulong v = start[i];
        uint count = 0;
        while (v > 1) {
            v = (v & 1) ? 3 * v + 1 : v >> 1;
            count++;
        }
        steps[i] = count;
    }
}
