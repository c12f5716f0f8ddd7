// ConvertSyncBatchNorm: with several processes, turns the model's BatchNorm layers into
// SyncBatchNorm when the Trainer is made (distributed::convert_sync_batchnorm), so batch
// statistics cover the union of all processes' batches; with one process it does nothing.
#pragma once

#include "accel/trainer/callback.h"

namespace accel {

class ConvertSyncBatchNorm : public Callback {
 public:
  void on_init_end(Trainer& trainer) override;
};

}  // namespace accel
