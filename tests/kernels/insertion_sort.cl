// Insertion sort directly in global memory, with a do-while for the outer loop.
kernel void insertion_sort(global ushort *v, int n) {
    int i = 1;
    if (n < 2)
        return;
    do {
        ushort key = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > key) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = key;
        i++;
    } while (i < n);
}
