// T09: relational, equality and logical results: scalar 0/1, vector 0/-1, NaN (checklist §5).
// engines: emu sim cosim
// expect si = [1, 0, 1, 0]
// expect vi = [-1, 0, 0, 0, -1, -1, 0, -1, 0, 0, -1, 0, 0, 0, -1, 0, 0, -1, -1, -1, -1, 0, 0, -1]
// expect vl = [0, -1]
// expect vc = [-1, 0, 0, 0]
kernel void t09(global int *si, global int4 *vi, global long2 *vl, global char4 *vc) {
    si[0] = (2 > 1);  si[1] = (2 == 1);  si[2] = (NAN != NAN);  si[3] = !5;
    float4 f = (float4)(1.0f, NAN, 3.0f, 4.0f), g = (float4)(2.0f, 2.0f, 3.0f, 0.0f);
    vi[0] = f <  g;
    vi[1] = f != g;
    vi[2] = f == g;
    vl[0] = (ulong2)(0, 1) > (ulong2)(0, 0);
    vc[0] = (uchar4)(1, 2, 3, 4) == (uchar4)(1);
    int4 a = (int4)(0, 1, 2, 0), b = (int4)(0, 0, 3, 4);
    vi[3] = a && b;
    vi[4] = a || b;
    vi[5] = !a;
}
