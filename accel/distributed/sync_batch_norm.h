// convert_sync_batchnorm: turns every BatchNorm of a model into a SyncBatchNorm, whose training
// statistics are those of the union of all processes' batches (torch.nn.SyncBatchNorm). In C++
// the layers stay where they are (a module's members keep pointing at them): each BatchNorm is
// given the group to sum its statistics over, so the conversion needs no replacement.
#pragma once

#include <memory>

#include "accel/distributed/process_group.h"
#include "accel/nn/module.h"

namespace accel::distributed {

// Returns how many BatchNorm layers it converted. The group defaults to the default group.
int convert_sync_batchnorm(nn::Module& model, std::shared_ptr<ProcessGroup> group = nullptr);

}  // namespace accel::distributed
