// accel's umbrella header: the whole public API. Link the CMake target accel::accel.
#pragma once

#include "accel/core/allocator.h"
#include "accel/core/autocast.h"
#include "accel/core/autograd/engine.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/device.h"
#include "accel/core/error.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/parallel.h"
#include "accel/core/random.h"
#include "accel/core/scalar_type.h"
#include "accel/core/stream.h"
#include "accel/core/tensor.h"
