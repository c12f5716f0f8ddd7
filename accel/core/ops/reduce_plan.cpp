// Building a ReducePlan (see reduce_plan.h).
#include "accel/core/ops/reduce_plan.h"

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/ops.h"

namespace accel {

ReducePlan plan_reduction(const Tensor& t, IntArrayRef dims, bool keepdim, const char* op) {
  NoGradGuard no_grad;  // the plan's copies are kernel inputs, not recorded ops
  const int64_t nd = t.dim();
  ReducePlan plan;
  plan.reduced_mask.assign(static_cast<size_t>(nd), dims.empty() ? 1 : 0);
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, nd, op);
    if (nd == 0) continue;
    ACCEL_CHECK(plan.reduced_mask[w] == 0, op,
                "dim {} appears multiple times in the list of dims {}", w, dims);
    plan.reduced_mask[w] = 1;
  }
  int64_t first = -1, last = -1;
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t size = t.sizes()[d];
    if (plan.reduced_mask[d]) {
      plan.keepdim_sizes.push_back(1);
      if (keepdim) plan.out_sizes.push_back(1);
      if (first < 0) first = d;
      last = d;
    } else {
      plan.keepdim_sizes.push_back(size);
      plan.out_sizes.push_back(size);
    }
  }
  bool block = true;
  for (int64_t d = first; d >= 0 && d <= last; ++d) block = block && plan.reduced_mask[d];
  if (first < 0) {  // nothing reduced (0-dim input)
    plan.input = t.contiguous();
    plan.shape = {t.numel(), 1, 1};
    return plan;
  }
  if (block) {
    plan.input = t.contiguous();
    const IntArrayRef s = t.sizes();
    plan.shape.outer = product(IntArrayRef(s.data(), static_cast<size_t>(first)));
    plan.shape.reduced =
        product(IntArrayRef(s.data() + first, static_cast<size_t>(last - first + 1)));
    plan.shape.inner =
        product(IntArrayRef(s.data() + last + 1, static_cast<size_t>(nd - last - 1)));
    return plan;
  }
  DimVector order;
  int64_t kept = 1, reduced = 1;
  for (int64_t d = 0; d < nd; ++d) {
    if (!plan.reduced_mask[d]) {
      order.push_back(d);
      kept *= t.sizes()[d];
    }
  }
  for (int64_t d = 0; d < nd; ++d) {
    if (plan.reduced_mask[d]) {
      order.push_back(d);
      reduced *= t.sizes()[d];
    }
  }
  plan.input = t.permute(order).contiguous();
  plan.shape = {kept, reduced, 1};
  plan.permutation = order;
  return plan;
}

Tensor to_input_order(const Tensor& planned, IntArrayRef permutation) {
  if (permutation.empty()) return planned;
  DimVector inverse(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i) {
    inverse[static_cast<size_t>(permutation[i])] = static_cast<int64_t>(i);
  }
  return planned.permute(inverse);
}

}  // namespace accel
