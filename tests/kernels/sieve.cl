// Sieve of Eratosthenes in a private bool array; break and continue in nested loops.
#define LIMIT 120
kernel void sieve(global int *primes, global int *count) {
    bool composite[LIMIT];
    for (int i = 0; i < LIMIT; i++)
        composite[i] = false;
    int found = 0;
    for (int i = 2; i < LIMIT; i++) {
        if (composite[i])
            continue;
        primes[found++] = i;
        if (found == 25)
            break;
        for (int j = i * i; j < LIMIT; j += i)
            composite[j] = true;
    }
    count[0] = found;
}
