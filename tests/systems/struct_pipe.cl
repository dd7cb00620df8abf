// OpenCL 2.0 pipes of structs: the producer sends records straight from a buffer of structs,
// the consumer reads each into a variable, changes two members and stores it whole.
typedef struct { int key; short tag; uchar flags[2]; } Record;

kernel void producer(global const Record *in, int n, write_only pipe Record p) {
    for (int i = 0; i < n; i++)
        while (write_pipe(p, &in[i]) != 0) { }
}

kernel void consumer(global Record *out, int n, read_only pipe Record p) {
    for (int i = 0; i < n; i++) {
        Record r;
        while (read_pipe(p, &r) != 0) { }
        r.key += r.tag;
        r.flags[1] ^= 0xff;
        out[i] = r;
    }
}
