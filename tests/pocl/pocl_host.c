/* Runs one OpenCL C kernel on the first OpenCL device (PoCL in kiln's tests) and prints its
 * global buffers, so kiln's emulator can be compared with a real OpenCL implementation.
 *
 * Input (stdin), one item per line:
 *   source PATH
 *   options BUILD-OPTIONS...            (optional, e.g. -cl-std=CL3.0 -DN=4)
 *   kernel NAME
 *   global G0 G1 G2                     (work-items per dimension)
 *   local L0 L1 L2                      (0 0 0: let the implementation choose)
 *   buffer NAME ELEM-BYTES SIGNED COUNT V0 V1 ...   (a __global or __constant buffer)
 *   scalar NAME BYTES VALUE             (a scalar argument)
 *   vector NAME ELEM-BYTES LANES V0 V1 ...   (a vector argument passed by value)
 *   localmem NAME BYTES                 (a __local pointer argument: its size)
 * Output: one line per buffer in argument order, `NAME V0 V1 ...`, after the kernel ran. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

struct arg {
    char name[128];
    int is_buffer;
    int is_vector;
    int is_local;
    int elem_bytes;
    int is_signed;
    size_t count;
    unsigned char *data;
    long long scalar;
    cl_mem mem;
};

static void die(const char *what, cl_int err) {
    fprintf(stderr, "pocl_host: %s failed (%d)\n", what, (int)err);
    exit(2);
}

static void put(unsigned char *p, int bytes, long long v) {
    for (int i = 0; i < bytes; i++) p[i] = (unsigned char)((unsigned long long)v >> (8 * i));
}

static long long get(const unsigned char *p, int bytes, int is_signed) {
    unsigned long long v = 0;
    for (int i = 0; i < bytes; i++) v |= (unsigned long long)p[i] << (8 * i);
    if (is_signed && bytes < 8 && (v >> (8 * bytes - 1)) & 1) v |= ~0ULL << (8 * bytes);
    return (long long)v;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "pocl_host: cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "pocl_host: cannot read %s\n", path); exit(2); }
    s[n] = 0;
    fclose(f);
    return s;
}

int main(void) {
    static char line[1 << 20];
    char source_path[4096] = "", options[4096] = "", kernel_name[256] = "";
    size_t global[3] = {1, 1, 1}, local[3] = {0, 0, 0};
    static struct arg args[MAX_ARGS];
    int nargs = 0;
    while (fgets(line, sizeof line, stdin)) {
        char *save = NULL;
        char *word = strtok_r(line, " \t\r\n", &save);
        if (!word) continue;
        if (!strcmp(word, "source")) {
            snprintf(source_path, sizeof source_path, "%s", strtok_r(NULL, "\r\n", &save));
        } else if (!strcmp(word, "options")) {
            char *rest = strtok_r(NULL, "\r\n", &save);
            snprintf(options, sizeof options, "%s", rest ? rest : "");
        } else if (!strcmp(word, "kernel")) {
            snprintf(kernel_name, sizeof kernel_name, "%s", strtok_r(NULL, " \t\r\n", &save));
        } else if (!strcmp(word, "global") || !strcmp(word, "local")) {
            size_t *dst = !strcmp(word, "global") ? global : local;
            for (int d = 0; d < 3; d++) dst[d] = strtoull(strtok_r(NULL, " \t\r\n", &save), NULL, 10);
        } else if (!strcmp(word, "localmem")) {
            if (nargs == MAX_ARGS) { fprintf(stderr, "pocl_host: too many arguments\n"); return 2; }
            struct arg *a = &args[nargs++];
            snprintf(a->name, sizeof a->name, "%s", strtok_r(NULL, " \t\r\n", &save));
            a->is_local = 1;
            a->count = strtoull(strtok_r(NULL, " \t\r\n", &save), NULL, 10);
        } else if (!strcmp(word, "buffer") || !strcmp(word, "scalar") || !strcmp(word, "vector")) {
            if (nargs == MAX_ARGS) { fprintf(stderr, "pocl_host: too many arguments\n"); return 2; }
            struct arg *a = &args[nargs++];
            snprintf(a->name, sizeof a->name, "%s", strtok_r(NULL, " \t\r\n", &save));
            a->is_buffer = !strcmp(word, "buffer");
            a->is_vector = !strcmp(word, "vector");
            a->elem_bytes = atoi(strtok_r(NULL, " \t\r\n", &save));
            if (a->is_buffer || a->is_vector) {
                if (a->is_buffer) a->is_signed = atoi(strtok_r(NULL, " \t\r\n", &save));
                a->count = strtoull(strtok_r(NULL, " \t\r\n", &save), NULL, 10);
                a->data = calloc(a->count ? a->count : 1, (size_t)a->elem_bytes);
                for (size_t i = 0; i < a->count; i++)
                    put(a->data + i * a->elem_bytes, a->elem_bytes, strtoll(strtok_r(NULL, " \t\r\n", &save), NULL, 10));
            } else {
                a->scalar = strtoll(strtok_r(NULL, " \t\r\n", &save), NULL, 10);
            }
        }
    }
    cl_int err;
    cl_platform_id platform;
    cl_device_id device;
    if ((err = clGetPlatformIDs(1, &platform, NULL))) die("clGetPlatformIDs", err);
    if ((err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL))) die("clGetDeviceIDs", err);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err) die("clCreateContext", err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    if (err) die("clCreateCommandQueue", err);
    const char *src = read_file(source_path);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err) die("clCreateProgramWithSource", err);
    if ((err = clBuildProgram(prog, 1, &device, options, NULL, NULL))) {
        static char log[1 << 16];
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "pocl_host: build failed:\n%s\n", log);
        return 3;
    }
    cl_kernel k = clCreateKernel(prog, kernel_name, &err);
    if (err) die("clCreateKernel", err);
    for (int i = 0; i < nargs; i++) {
        struct arg *a = &args[i];
        if (a->is_local) {
            if ((err = clSetKernelArg(k, (cl_uint)i, a->count, NULL))) die("clSetKernelArg", err);
        } else if (a->is_buffer) {
            size_t bytes = (a->count ? a->count : 1) * (size_t)a->elem_bytes;
            a->mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, a->data, &err);
            if (err) die("clCreateBuffer", err);
            if ((err = clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &a->mem))) die("clSetKernelArg", err);
        } else if (a->is_vector) {
            /* A 3-lane vector occupies 4 lanes (OpenCL's layout); the padding lane is 0. */
            size_t lanes = a->count == 3 ? 4 : a->count;
            unsigned char v[128] = {0};
            memcpy(v, a->data, a->count * (size_t)a->elem_bytes);
            if ((err = clSetKernelArg(k, (cl_uint)i, lanes * (size_t)a->elem_bytes, v))) die("clSetKernelArg", err);
        } else {
            unsigned char v[8];
            put(v, a->elem_bytes, a->scalar);
            if ((err = clSetKernelArg(k, (cl_uint)i, (size_t)a->elem_bytes, v))) die("clSetKernelArg", err);
        }
    }
    int dims = global[2] > 1 ? 3 : global[1] > 1 ? 2 : 1;
    if (local[0] == 0) {
        /* No size given: the kernel's reqd_work_group_size, if it has one. */
        size_t reqd[3] = {0, 0, 0};
        clGetKernelWorkGroupInfo(k, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd, reqd, NULL);
        if (reqd[0] != 0) memcpy(local, reqd, sizeof reqd);
    }
    int has_local = local[0] != 0;
    if ((err = clEnqueueNDRangeKernel(q, k, (cl_uint)dims, NULL, global, has_local ? local : NULL, 0, NULL, NULL)))
        die("clEnqueueNDRangeKernel", err);
    for (int i = 0; i < nargs; i++) {
        struct arg *a = &args[i];
        if (!a->is_buffer) continue;
        size_t bytes = (a->count ? a->count : 1) * (size_t)a->elem_bytes;
        if ((err = clEnqueueReadBuffer(q, a->mem, CL_TRUE, 0, bytes, a->data, 0, NULL, NULL))) die("clEnqueueReadBuffer", err);
        /* `=` marks a buffer line: the kernel's own `printf` output has none. */
        printf("=%s", a->name);
        for (size_t j = 0; j < a->count; j++) {
            long long v = get(a->data + j * a->elem_bytes, a->elem_bytes, a->is_signed);
            if (a->is_signed) printf(" %lld", v);
            else printf(" %llu", (unsigned long long)v);
        }
        printf("\n");
    }
    return 0;
}
