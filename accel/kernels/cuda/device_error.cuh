// The device side of kernels/cuda/device_error.h: how a kernel reports an error. The first
// report wins; later ones (from any kernel) are dropped until the host has raised it.
#pragma once

#include "accel/kernels/cuda/device_error.h"

namespace accel::cuda {

__device__ inline void report_device_error(DeviceErrorRecord* record, DeviceErrorKind kind,
                                           const char* op, int64_t value = 0, int64_t size = 0,
                                           int64_t dim = 0, double real_value = 0) {
  // Once a report has claimed the record, later ones (a tensor full of bad indices) stop at
  // this read instead of each queuing an atomic; the atomic settles races.
  int32_t* claimed = record->claimed;
  if (*static_cast<volatile int32_t*>(claimed) != 0) return;
  if (atomicCAS(claimed, 0, 1) != 0) return;
  record->kind = kind;
  record->op = op;
  record->value = value;
  record->size = size;
  record->dim = dim;
  record->real_value = real_value;
  __threadfence_system();  // the fields reach host memory before `ready` does
  record->ready = 1;
}

}  // namespace accel::cuda
