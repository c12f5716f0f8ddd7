// Portability macros shared by host-only and CUDA translation units.
#pragma once

#if defined(__CUDACC__)
#define ACCEL_HOST_DEVICE __host__ __device__
#else
#define ACCEL_HOST_DEVICE
#endif

#define ACCEL_INLINE inline ACCEL_HOST_DEVICE
