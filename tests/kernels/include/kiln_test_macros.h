// Shared macros for preprocessor.cl (included with a relative path).
#pragma once
#define SQUARE(x) ((x) * (x))
#define CAT(a, b) a##b
#define STR(x) #x
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
