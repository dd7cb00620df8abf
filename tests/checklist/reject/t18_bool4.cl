// expect: E0412
bool4 bv;                       // REJECT in OpenCL C (booln reserved)
