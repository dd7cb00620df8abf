// Vector addition: the "hello world" of kiln.
//   kiln build examples/vadd.cl -o out/vadd
//   kiln cosim examples/vadd.cl --spec examples/vadd.toml --stall-seed 1
__kernel void vadd(__global const int *restrict a,
                   __global const int *restrict b,
                   __global int *restrict c,
                   int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}
