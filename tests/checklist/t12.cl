// T12c: ++/-- on an integer vector adds or subtracts 1 in each lane (checklist §5).
// engines: emu sim cosim
// expect p = [1, 0, -2147483648, 42]
kernel void t12c(global int4 *p) { int4 v = p[0]; v++; p[0] = v; }
