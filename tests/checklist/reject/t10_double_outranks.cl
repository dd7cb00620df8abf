// expect: W0330
// kiln accepts this with warning W0330: without `double` on the device, the unsuffixed literal is
// used as the float `2.0f` (as the specification allows when fp64 is absent), so the rank rule holds.
kernel void t10(global float4 *of) {
    float4 f = of[0];
    of[3] = f * 2.0;        // REJECT: double outranks float
}
