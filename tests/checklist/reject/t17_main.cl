// expect: E0406
void main(void) { }                                        // REJECT: function named main
