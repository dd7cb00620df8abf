// Loops written with backward `goto`s, as C ported from older code has them: a Collatz step
// count per element, and a retry loop around an inner search that jumps out forward.
__kernel void goto_retry(__global const uint *in, __global uint *steps, __global int *where, int n)
{
    for (int k = 0; k < n; k++) {
        uint x = in[k] | 1u;
        uint count = 0;
    step:
        if (x != 1u && count < 200u) {
            x = (x & 1u) ? 3u * x + 1u : x >> 1;
            count++;
            goto step;
        }
        steps[k] = count;
    }

    int attempt = 0;
    int target = (int)(in[0] & 15u);
again:
    for (int i = 0; i < n; i++) {
        if ((int)(in[i] & 15u) == target + attempt) {
            where[0] = i;
            where[1] = attempt;
            goto done;
        }
    }
    attempt++;
    if (attempt < 16)
        goto again;
    where[0] = -1;
    where[1] = attempt;
done:
    where[2] = target;
}
