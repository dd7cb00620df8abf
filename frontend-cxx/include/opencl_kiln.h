// kiln's subset of the OpenCL C++ 1.0 library (`cl::`), read by kiln's C++ front end whenever a
// kernel includes one of the `<opencl_*>` headers. Built-in functions of OpenCL C are members
// of `cl` as well (`cl::sin`, `cl::get_global_id`, ...), found without a declaration here.
#pragma once

namespace cl {

// ----- <opencl_def>: types -----
using uchar = ::uchar;
using ushort = ::ushort;
using uint = ::uint;
using ulong = ::ulong;
using size_t = ::size_t;
using ptrdiff_t = ::ptrdiff_t;
using intptr_t = ::intptr_t;
using uintptr_t = ::uintptr_t;

// ----- <opencl_vec>: vectors -----
template <class T, size_t N> using vec = __kiln_vector<T, N>;

// ----- <opencl_memory>: explicit address-space pointers and storage classes -----
// `global_ptr<T>` and `global_ptr<T[]>` are OpenCL C's `__global T *` (and so on).
template <class T> using global_ptr = __kiln_ptr_global<T>;
template <class T> using local_ptr = __kiln_ptr_local<T>;
template <class T> using private_ptr = __kiln_ptr_private<T>;
template <class T> using constant_ptr = __kiln_ptr_constant<T>;
template <class T> using global = __kiln_global<T>;
template <class T> using local = __kiln_local<T>;
template <class T> using priv = __kiln_priv<T>;
template <class T> using constant = __kiln_constant<T>;

// ----- <opencl_synchronization> -----
enum class mem_fence : uint { local = 1, global = 2, image = 4 };
constexpr mem_fence operator|(mem_fence a, mem_fence b) { return static_cast<mem_fence>(static_cast<uint>(a) | static_cast<uint>(b)); }
constexpr mem_fence operator&(mem_fence a, mem_fence b) { return static_cast<mem_fence>(static_cast<uint>(a) & static_cast<uint>(b)); }
enum class memory_scope : uint { work_item = 0, sub_group = 4, work_group = 1, device = 2, all_svm_devices = 3 };
enum class memory_order : uint { relaxed = 0, acquire = 2, release = 3, acq_rel = 4, seq_cst = 5 };
inline void work_group_barrier(mem_fence flags, memory_scope scope = memory_scope::work_group) {
    ::barrier(static_cast<uint>(flags));
}
inline void atomic_fence(mem_fence flags, memory_order order, memory_scope scope = memory_scope::work_group) {
    ::mem_fence(static_cast<uint>(flags));
}

// ----- <opencl_array> -----
template <class T, size_t N> struct array {
    T __elems[N];
    using value_type = T;
    using size_type = size_t;
    using difference_type = ptrdiff_t;
    using reference = T &;
    using const_reference = const T &;
    using pointer = T *;
    using const_pointer = const T *;
    using iterator = T *;
    using const_iterator = const T *;
    constexpr size_t size() const { return N; }
    constexpr size_t max_size() const { return N; }
    constexpr bool empty() const { return N == 0; }
    T &operator[](size_t i) { return __elems[i]; }
    const T &operator[](size_t i) const { return __elems[i]; }
    T &at(size_t i) { return __elems[i]; }
    const T &at(size_t i) const { return __elems[i]; }
    T &front() { return __elems[0]; }
    const T &front() const { return __elems[0]; }
    T &back() { return __elems[N - 1]; }
    const T &back() const { return __elems[N - 1]; }
    T *data() { return __elems; }
    const T *data() const { return __elems; }
    T *begin() { return __elems; }
    const T *begin() const { return __elems; }
    const T *cbegin() const { return __elems; }
    T *end() { return __elems + N; }
    const T *end() const { return __elems + N; }
    const T *cend() const { return __elems + N; }
    void fill(const T &value) {
        for (size_t i = 0; i < N; ++i)
            __elems[i] = value;
    }
};

// ----- <opencl_atomic> -----
template <class T> using atomic = __kiln_atomic<T>;
using atomic_int = atomic<int>;
using atomic_uint = atomic<uint>;

// ----- <opencl_pipe> -----
enum class pipe_access : uint { read = 0, write = 1 };
template <class T, pipe_access Access = pipe_access::read> using pipe = __kiln_pipe<T, Access>;
template <class T, size_t N> using pipe_storage = __kiln_pipe_storage<T, N>;

// ----- <opencl_convert> and <opencl_reinterpret> -----
// `convert_cast<T, rounding_mode, saturate>(x)`, `as_type<T>(x)`, `vload<N>`, `vstore`,
// `vload_half<N>`, `vstore_half<R>`, `vloada_half<N>`, `vstorea_half<R>`: kiln writes them as the
// OpenCL C built-ins they stand for.
enum class rounding_mode { rte, rtz, rtp, rtn };
enum class saturate { off, on };

// ----- <opencl_utility> -----
template <class T> constexpr const T &__kiln_min(const T &a, const T &b) { return b < a ? b : a; }

}  // namespace cl
