/* Lets g++ compile kiln's C++ corpus kernels as C++17, as an independent reference for the C++
   rules kiln's C++ front end implements (overloads, templates, constructors, lambdas,
   constexpr). Only single work-item kernels on scalar types are covered: address-space
   keywords vanish, OpenCL's unsigned names become typedefs, and the `cl::` names these kernels
   use have plain C++ definitions. OpenCL's 64-bit `long` matches x86-64 Linux. */
#include <cstddef>
#define __attribute__(x)
#define __kernel
#define kernel
#define __global
#define global
#define __constant const
#define constant const
#define __private
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

static unsigned int kiln_global_id[3], kiln_global_size[3] = {1, 1, 1};
inline uint get_global_id(uint d) { return kiln_global_id[d]; }
inline uint get_global_size(uint d) { return kiln_global_size[d]; }

template <class T> inline T kiln_min(T a, T b) { return b < a ? b : a; }
template <class T> inline T kiln_max(T a, T b) { return a < b ? b : a; }
inline int min(int a, int b) { return kiln_min(a, b); }
inline int max(int a, int b) { return kiln_max(a, b); }
inline uint min(uint a, uint b) { return kiln_min(a, b); }
inline uint max(uint a, uint b) { return kiln_max(a, b); }
inline int clamp(int x, int lo, int hi) { return min(max(x, lo), hi); }

namespace cl {
template <class T> struct element_of { using type = T; };
template <class T> struct element_of<T[]> { using type = T; };
template <class T> using global_ptr = typename element_of<T>::type *;
template <class T> using constant_ptr = const typename element_of<T>::type *;
template <class T> using private_ptr = typename element_of<T>::type *;
using ::get_global_id;
using ::get_global_size;
using ::min;
using ::max;
using ::clamp;

template <class T, std::size_t N> struct array {
    T __elems[N];
    constexpr std::size_t size() const { return N; }
    T &operator[](std::size_t i) { return __elems[i]; }
    const T &operator[](std::size_t i) const { return __elems[i]; }
    T &front() { return __elems[0]; }
    T &back() { return __elems[N - 1]; }
    T *data() { return __elems; }
    T *begin() { return __elems; }
    T *end() { return __elems + N; }
    const T *begin() const { return __elems; }
    const T *end() const { return __elems + N; }
    void fill(const T &v) {
        for (std::size_t i = 0; i < N; ++i) __elems[i] = v;
    }
};
}  // namespace cl
