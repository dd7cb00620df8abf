// c-reference: no (OpenCL vector types are not C)
// Wide memory ports: a buffer of vectors moves a whole vector per request. A stream of int4
// runs at one vector per cycle (one request per port per iteration, II 1); a store of some
// lanes writes only those (byte enables); a 3-vector is a 4-lane word whose padding lane is
// never written; a scalar view of a vector buffer reads and writes single lanes of its words;
// a long16 is two 512-bit words.
kernel void vec_ports(global const int4 *in, global int4 *out, global short4 *marks, global float3 *pos,
                      global long16 *big, global int *sums, int n) {
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=true achieved_ii=1 mii=1
        int4 v = in[i];
        out[i] = v * 3 + (int4)(i, -i, 1, 0);
        marks[i].yw = (short2)(v.x > v.y, (short)(v.z - v.w));  // lanes x and z keep their values
    }
    for (int i = 0; i < 4; i++) {
        float3 p = pos[i];
        pos[i] = (float3)(p.z, p.x, p.y);
    }
    global int *flat = (global int *)out;
    int s = 0;
    for (int k = 1; k < 4 * n; k += 3) {
        s += flat[k];
        flat[k] = k;  // one lane of a word
    }
    sums[0] = s;
    long16 b = big[0];
    big[1] = b + b.sfedcba9876543210;
}
