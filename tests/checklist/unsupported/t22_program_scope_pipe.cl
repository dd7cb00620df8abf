// expect: E0506
// not yet: pipes (this rule is checked once pipes are supported)
pipe int gp;                                        // REJECT in standard mode
