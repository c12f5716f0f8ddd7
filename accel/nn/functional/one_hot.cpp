// one_hot: a comparison of the classes against 0 .. num_classes - 1.
#include "accel/nn/functional/one_hot.h"

#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::functional {

Tensor one_hot(const Tensor& classes, int64_t num_classes) {
  constexpr const char* op = "one_hot";
  ACCEL_CHECK(classes.defined(), op, "the tensor is undefined");
  ACCEL_CHECK(classes.dtype() == kInt64, op, "expected an int64 tensor of classes, got {}",
              classes.dtype());
  ACCEL_CHECK(num_classes >= -1, op, "num_classes must be -1 or non-negative, got {}", num_classes);
  if (classes.numel() > 0) {
    const int64_t lowest = classes.amin().item<int64_t>();
    const int64_t highest = classes.amax().item<int64_t>();
    ACCEL_CHECK(lowest >= 0, op, "class values must be non-negative, got {}", lowest);
    if (num_classes == -1) num_classes = highest + 1;
    ACCEL_CHECK(highest < num_classes, op,
                "class values must be smaller than num_classes {}, got {}", num_classes, highest);
  } else {
    ACCEL_CHECK(num_classes != -1, op,
                "cannot infer the number of classes from an empty tensor; give num_classes");
  }
  const Tensor all_classes = arange(num_classes, TensorOptions(kInt64).device(classes.device()));
  return eq(classes.unsqueeze(-1), all_classes).to(kInt64);
}

}  // namespace accel::nn::functional
