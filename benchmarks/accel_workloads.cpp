// Registers the workloads of workloads.h for accel.
#include "accel_adapter.h"
#include "workloads.h"

void bench::register_accel() { register_workloads<Accel>(kAccel); }
