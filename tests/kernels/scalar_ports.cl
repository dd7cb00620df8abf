// c-reference: no (OpenCL vector types are not C)
// Wide ports for scalar buffers: when the accesses of a buffer come in aligned groups of
// neighbours, its port moves a word of them per request. vload4/vstore4 on an `int` buffer
// run at one vector per cycle; hand-written pairs `a[2i]`, `a[2i+1]` share a request, and a
// buffer of odd length ends in half a word; a member of a struct in a buffer is one request
// (a whole 8-byte struct is one word), and a store of one member writes only its bytes.
typedef struct { int key; short count; char tag; uchar flags; } Entry;   // 8 bytes
typedef struct { int x; int y; short w; } Point;                         // 12 bytes
kernel void scalar_ports(global const int *in, global int *out, global const short *pairs,
                         global int *sums, global Entry *entries, global Point *points, int n) {
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=true achieved_ii=1 mii=1
        int4 v = vload4(i, in);
        vstore4(v * 3 + (int4)(i, -i, 1, 0), i, out);
    }
    int s = 0;
    for (int i = 0; i < 4; i++)
        s += pairs[2 * i] * pairs[2 * i + 1];
    sums[0] = s + pairs[8];  // the last word of `pairs` (9 elements) has one lane
    for (int i = 0; i < 4; i++) {
        Entry e = entries[i];
        e.count += (short)e.key;
        e.tag = (char)(e.tag ^ 0x55);
        entries[i] = e;
        entries[i + 4].flags = (uchar)i;   // one byte of another word
    }
    for (int i = 0; i < 4; i++) {
        points[i].x += points[i].y * points[i].w;
        points[i].w = (short)-points[i].w;
    }
}
