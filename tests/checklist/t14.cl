// T14: address-space declaration rules, the accepted lines (checklist §5).
// engines: emu sim cosim
// expect buf = [0, 0, 0, 7, 0]
local int *f2(local int *p) { return p; }
constant int a = 3;
kernel void t14b(global int *buf) {
    local float b[10];
    private int *local lp;
    buf[a] = 7;
}
