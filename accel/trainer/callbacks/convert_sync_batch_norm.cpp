// ConvertSyncBatchNorm: one call to convert_sync_batchnorm over the Accelerator's group.
#include "accel/trainer/callbacks/convert_sync_batch_norm.h"

#include "accel/distributed/sync_batch_norm.h"
#include "accel/trainer/trainer.h"

namespace accel {

void ConvertSyncBatchNorm::on_init_end(Trainer& trainer) {
  const Accelerator& accelerator = trainer.accelerator();
  if (!accelerator.is_distributed()) return;
  distributed::convert_sync_batchnorm(trainer.get_model(), accelerator.shared_process_group());
}

}  // namespace accel
