// convert_sync_batchnorm: every BatchNorm gets a cross-process sum over the group.
#include "accel/distributed/sync_batch_norm.h"

#include "accel/distributed/differentiable_all_reduce.h"
#include "accel/distributed/init_process_group.h"
#include "accel/nn/modules/normalization.h"

namespace accel::distributed {

int convert_sync_batchnorm(nn::Module& model, std::shared_ptr<ProcessGroup> group) {
  if (!group) group = default_process_group();
  int converted = 0;
  model.apply([&](nn::Module& module) {
    if (auto* batch_norm = dynamic_cast<nn::BatchNormImplBase*>(&module)) {
      batch_norm->cross_process_sum = [group](const Tensor& t) { return all_reduce_sum(t, group); };
      ++converted;
    }
  });
  return converted;
}

}  // namespace accel::distributed
