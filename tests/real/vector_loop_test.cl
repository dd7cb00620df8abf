// Loop tests with a vector `?:` under `&&`, as random differential testing writes them: C
// evaluates the vector work only when the left side holds, so the test runs as statements at
// the top of the body (at its end for `do`-`while`).
__kernel void vector_loop_test(__global const int *in, __global int *out, int n)
{
    int4 lim = (int4)(n, n - 1, n - 2, n - 3);
    int count = 0;
    for (int i = 0; i < 16 && any((i > 2 ? (int4)(i) : (int4)(0)) < lim); i++) {
        if (in[i] < 0)
            continue;
        count += in[i];
    }
    out[0] = count;
    int j = 0;
    do {
        j++;
    } while (j < 12 && all(((j & 1) ? (int4)(j) : (int4)(-j)) != lim));
    out[1] = j;
    int k = 0;
    while (k < 8 || any((k > 9 ? lim : (int4)(k)) < (int4)(3)))
        k += 1 + (in[k & 15] & 1);
    out[2] = k;
}
