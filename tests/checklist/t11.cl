// T11: shift-count masking (checklist §5, the accepted lines).
// engines: emu sim cosim
// expect o = [2, 512]
// expect o4 = [2, 2, 2, 2]
// expect oi = [-4, -4]
// expect ou = [16384, 16384, 16384, 16384]
// expect oc = [-64, -64, -64, -64]
kernel void t11(global uint *o, global uchar4 *o4, global int *oi, global ushort4 *ou, global char4 *oc) {
    uint x = 1;               o[0]  = x << 33;
    uchar4 v = (uchar4)(1);   o4[0] = v << 9;
    uchar c = 1;              o[1]  = c << 9;
    int n = -16;              oi[0] = n >> 2;
                              oi[1] = n >> 34;
    ushort4 w = (ushort4)(0x8000); ou[0] = w >> 17;
    char4 s = (char4)(-128);  oc[0] = s >> 9;
}
