// Reverse an array in place with two indices meeting in the middle.
kernel void reverse(global long *a, int n) {
    int i = 0, j = n - 1;
    while (i < j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
    }
}
