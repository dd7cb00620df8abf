// expect: E0409
kernel void t16(global float *a) {
    global int hurl;                                             // REJECT: global variable must be static/extern
}
