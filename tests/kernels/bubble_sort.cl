// Bubble sort of up to 32 elements in a private array, with an early exit.
#define MAX 32
kernel void bubble_sort(global int *data, int n) {
    int a[MAX];
    for (int i = 0; i < n; i++)
        a[i] = data[i];
    for (int pass = 0; pass < n - 1; pass++) {
        int swapped = 0;
        for (int i = 0; i < n - 1 - pass; i++) {
            if (a[i] > a[i + 1]) {
                int t = a[i];
                a[i] = a[i + 1];
                a[i + 1] = t;
                swapped = 1;
            }
        }
        if (!swapped)
            break;
    }
    for (int i = 0; i < n; i++)
        data[i] = a[i];
}
