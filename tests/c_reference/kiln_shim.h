/* Lets gcc compile kiln's integer corpus kernels as C99, as an independent reference.
   Only the integer subset is covered: address-space qualifiers vanish, OpenCL's
   unsigned type names become typedefs. OpenCL's 64-bit `long` matches x86-64 Linux. */
#include <stdbool.h>
#include <stdint.h>
#define __kernel
#define kernel
#define __global
#define global
#define __constant const
#define constant const
#define __private
#define private
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
/* Barrier-free NDRange kernels: the harness loops over the work-items. */
#define size_t unsigned int
static unsigned int kiln_global_id[3], kiln_global_size[3] = {1, 1, 1};
#define get_global_id(d) kiln_global_id[d]
#define get_global_size(d) kiln_global_size[d]
#define get_work_dim() 1
