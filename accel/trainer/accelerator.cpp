// Accelerator: device placement, mixed precision and collectives for the Trainer.
#include "accel/trainer/accelerator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "accel/base/error.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/cuda.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/distributed/init_process_group.h"
#include "accel/nn/utils/clip_grad.h"

namespace accel {
namespace {

std::vector<Tensor> optimizer_parameters(optim::Optimizer& optimizer) {
  std::vector<Tensor> params;
  for (const auto& group : optimizer.param_groups()) {
    params.insert(params.end(), group.params().begin(), group.params().end());
  }
  return params;
}

MixedPrecision mixed_precision_from_environment() {
  const char* value = std::getenv("ACCEL_MIXED_PRECISION");
  return value && *value ? parse_mixed_precision(value) : MixedPrecision::No;
}

// This process's GPU: the launcher's local rank, spread over the devices present.
Device local_gpu(int local_rank) {
  const int count = cuda::device_count();
  return Device(kCUDA, count > 0 ? local_rank % count : local_rank);
}

}  // namespace

Device pick_device(std::optional<Device> configured, int local_rank) {
  if (configured) return *configured;
  const char* value = std::getenv("ACCEL_DEVICE");
  const std::string_view choice = value != nullptr ? value : "";
  if (choice.empty() || choice == "auto") {
    return cuda::is_available() ? local_gpu(local_rank) : Device(kCPU);
  }
  if (choice == "cuda") {
    const Device gpu = local_gpu(local_rank);
    cuda::check_device(gpu, "Accelerator (ACCEL_DEVICE=cuda)");
    return gpu;
  }
  if (choice == "cpu") return Device(kCPU);
  fail("Accelerator", "ACCEL_DEVICE must be one of auto, cpu, cuda; got '{}'", choice);
}

MixedPrecision parse_mixed_precision(std::string_view text) {
  if (text == "no") return MixedPrecision::No;
  if (text == "fp16") return MixedPrecision::FP16;
  if (text == "bf16") return MixedPrecision::BF16;
  fail("Accelerator", "mixed precision must be one of no, fp16, bf16; got '{}'", text);
}

std::string_view to_string(MixedPrecision mode) {
  switch (mode) {
    case MixedPrecision::No:
      return "no";
    case MixedPrecision::FP16:
      return "fp16";
    case MixedPrecision::BF16:
      return "bf16";
  }
  return "?";
}

AutocastScope::AutocastScope(DeviceType device, std::optional<ScalarType> dtype) {
  if (dtype) guard_.emplace(device, *dtype);
}

Accelerator::Accelerator(AcceleratorConfig config)
    : mixed_precision_(config.mixed_precision.value_or(mixed_precision_from_environment())),
      process_group_(std::move(config.process_group)) {
  const int local_rank =
      process_group_ ? process_group_->local_rank() : distributed::launch_environment().local_rank;
  device_ = pick_device(config.device, local_rank);
  if (device_.is_cuda()) {
    cuda::check_device(device_, "Accelerator");
    cuda::set_device(device_);  // as a script's torch.cuda.set_device(local_rank)
  }
  if (!process_group_) process_group_ = distributed::init_process_group_for(device_);
  ACCEL_CHECK(!is_distributed() || process_group_->device().type == device_.type, "Accelerator",
              "this process trains on {} but its process group moves tensors on {}: CPU training "
              "goes through MPI, GPU training through NCCL",
              device_, process_group_->device());
  if (mixed_precision_ == MixedPrecision::FP16) grad_scaler_.emplace(config.grad_scaler);
}

void Accelerator::prepare_model(nn::Module& model) {
  model.to(device_);
  std::erase_if(data_parallel_, [](const Wrapped& wrapped) { return wrapped.model.expired(); });
  const auto trainable = model.parameters();
  const bool learns =
      std::ranges::any_of(trainable, [](const Tensor& p) { return p.requires_grad(); });
  if (!is_distributed() || !learns || data_parallel(model)) return;
  ACCEL_CHECK(!model.weak_from_this().expired(), "Accelerator::prepare_model",
              "with several processes the model must be owned by a holder or shared_ptr");
  data_parallel_.push_back(
      {model.weak_from_this(),
       std::make_unique<distributed::DistributedDataParallel>(model, process_group_)});
}

distributed::DistributedDataParallel* Accelerator::data_parallel(const nn::Module& model) const {
  for (const Wrapped& wrapped : data_parallel_) {
    if (wrapped.model.lock().get() == &model) return wrapped.wrapper.get();
  }
  return nullptr;
}

Tensor Accelerator::prepare_tensor(const Tensor& tensor) const {
  if (!tensor.defined() || tensor.device() == device_) return tensor;
  // A pinned batch (the loaders pin on GPUs) moves without blocking the host.
  return tensor.to(device_, /*non_blocking=*/tensor.is_cpu() && tensor.is_pinned());
}

AutocastScope Accelerator::autocast() const {
  switch (mixed_precision_) {
    case MixedPrecision::FP16:
      return AutocastScope(device_.type, kFloat16);
    case MixedPrecision::BF16:
      return AutocastScope(device_.type, kBFloat16);
    case MixedPrecision::No:
      break;
  }
  return AutocastScope(device_.type, std::nullopt);
}

void Accelerator::backward(const Tensor& loss) {
  if (grad_scaler_) {
    grad_scaler_->scale(loss).backward();
  } else {
    loss.backward();
  }
}

void Accelerator::unscale_gradients(optim::Optimizer& optimizer) {
  if (grad_scaler_ && !grad_scaler_->has_unscaled()) grad_scaler_->unscale_(optimizer);
}

Tensor Accelerator::clip_grad_norm_(optim::Optimizer& optimizer, double max_norm,
                                    double norm_type) {
  unscale_gradients(optimizer);
  // Under float16 an overflowed step is skipped anyway: a non-finite norm is no error then.
  return nn::utils::clip_grad_norm_(optimizer_parameters(optimizer), max_norm, norm_type,
                                    /*error_if_nonfinite=*/false);
}

void Accelerator::clip_grad_value_(optim::Optimizer& optimizer, double clip_value) {
  unscale_gradients(optimizer);
  nn::utils::clip_grad_value_(optimizer_parameters(optimizer), clip_value);
}

void Accelerator::optimizer_step(optim::Optimizer& optimizer) {
  if (grad_scaler_) {
    step_was_skipped_ = !grad_scaler_->step(optimizer);
    grad_scaler_->update();
  } else {
    optimizer.step();
    step_was_skipped_ = false;
  }
}

Accelerator::NoSync::NoSync(distributed::DistributedDataParallel* ddp) {
  if (ddp) guard_.emplace(*ddp);
}

Accelerator::NoSync Accelerator::no_sync(nn::Module& model) const {
  return NoSync(data_parallel(model));
}

Tensor Accelerator::on_group_device(const Tensor& tensor) const {
  return tensor.to(process_group_->device()).contiguous();
}

Tensor Accelerator::gather(const Tensor& tensor) const {
  const Tensor input = tensor.dim() == 0 ? tensor.reshape({1}) : tensor;
  if (!is_distributed()) return input.clone();
  std::vector<Tensor> parts;
  process_group_->all_gather(parts, on_group_device(input))->wait();
  return cat(parts, 0).to(tensor.device());
}

Tensor Accelerator::pad_across_processes(const Tensor& tensor, int64_t dim, double value) const {
  ACCEL_CHECK(tensor.dim() > 0, "Accelerator::pad_across_processes",
              "expected a tensor with at least one dimension, got a 0-dim tensor");
  const int64_t d = dim < 0 ? dim + tensor.dim() : dim;
  ACCEL_CHECK(d >= 0 && d < tensor.dim(), "Accelerator::pad_across_processes",
              "dim {} out of range for a tensor of {} dimensions", dim, tensor.dim());
  if (!is_distributed()) return tensor;
  Tensor size = full({1}, static_cast<double>(tensor.size(d)),
                     TensorOptions(kInt64).device(process_group_->device()));
  process_group_->all_reduce(size, distributed::ReduceOp::Max)->wait();
  const int64_t largest = size.item<int64_t>();
  if (largest == tensor.size(d)) return tensor;
  auto pad_sizes = tensor.sizes().vec();
  pad_sizes[static_cast<size_t>(d)] = largest - tensor.size(d);
  return cat({tensor, full(pad_sizes, value, tensor.options())}, d);
}

Tensor Accelerator::reduce(const Tensor& tensor, distributed::ReduceOp op) const {
  if (!is_distributed()) return tensor.clone();
  Tensor result = on_group_device(tensor).clone();
  process_group_->all_reduce(result, op)->wait();
  return result.to(tensor.device());
}

void Accelerator::wait_for_everyone() const { process_group_->barrier()->wait(); }

void Accelerator::print_line(const std::string& line) const {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

}  // namespace accel
