// expect: E0105
#error this configuration is not supported
