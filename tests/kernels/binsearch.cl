// Binary search of each key in a sorted table; returns the index or -1.
int find(global const int *table, int len, int key) {
    int lo = 0, hi = len - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int v = table[mid];
        if (v == key)
            return mid;
        if (v < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}
kernel void binsearch(global const int *table, global const int *keys, global int *pos, int len, int n) {
    for (int i = 0; i < n; i++)
        pos[i] = find(table, len, keys[i]);
}
