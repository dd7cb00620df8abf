// expect: E0406
void main(void) { }
