// Accelerator: everything the Trainer needs to know about devices, processes and mixed
// precision, behind one object (the role Hugging Face Accelerate plays for the Python
// original). The Trainer's loop calls it and contains no device or process special cases.
#pragma once

#include <fmt/core.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accel/base/device.h"
#include "accel/core/autocast.h"
#include "accel/core/tensor.h"
#include "accel/distributed/distributed_data_parallel.h"
#include "accel/distributed/process_group.h"
#include "accel/nn/module.h"
#include "accel/optim/optimizer.h"
#include "accel/trainer/grad_scaler.h"

namespace accel {

enum class MixedPrecision { No, FP16, BF16 };

// "no", "fp16" or "bf16" (the values of ACCEL_MIXED_PRECISION); anything else is an error.
MixedPrecision parse_mixed_precision(std::string_view text);
std::string_view to_string(MixedPrecision mode);

struct AcceleratorConfig {
  // Unset: the environment variable ACCEL_MIXED_PRECISION decides, else no mixed precision.
  std::optional<MixedPrecision> mixed_precision = std::nullopt;
  // Unset: the process's default group (distributed::init_process_group_for(device): one
  // process unless launched as several; then MPI on the CPU, NCCL on GPUs).
  std::shared_ptr<distributed::ProcessGroup> process_group = nullptr;
  // Unset: ACCEL_DEVICE (auto, cpu or cuda) decides; auto, the default, takes this process's
  // GPU (cuda:LOCAL_RANK, modulo the devices present) when there is one, else the CPU.
  std::optional<Device> device = std::nullopt;
  GradScalerOptions grad_scaler = {};  // float16 only
};

// The device an Accelerator runs on: `configured` if set, else as ACCEL_DEVICE says (see
// AcceleratorConfig::device); local_rank is the process's rank on its node.
Device pick_device(std::optional<Device> configured, int local_rank);

// The autocast state of one forward pass: active for the scope's lifetime when mixed
// precision is on, a no-op otherwise.
class AutocastScope {
 public:
  AutocastScope(DeviceType device, std::optional<ScalarType> dtype);
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  std::optional<AutocastGuard> guard_;
};

class Accelerator {
 public:
  explicit Accelerator(AcceleratorConfig config = {});

  Device device() const { return device_; }
  MixedPrecision mixed_precision() const { return mixed_precision_; }
  distributed::ProcessGroup& process_group() const { return *process_group_; }
  const std::shared_ptr<distributed::ProcessGroup>& shared_process_group() const {
    return process_group_;
  }

  // Moves the model's parameters and buffers to device() in place (optimizers stay valid) and,
  // with several processes, wraps a model with trainable parameters in DistributedDataParallel
  // (once per model; every process must prepare the same models in the same order).
  void prepare_model(nn::Module& model);
  // A batch's tensors on device().
  Tensor prepare_tensor(const Tensor& tensor) const;

  // Mixed precision for the forward pass: `auto scope = accelerator.autocast();`.
  AutocastScope autocast() const;
  // loss.backward(), through the loss scaler under float16.
  void backward(const Tensor& loss);
  // Divides the gradients by the loss scale (float16; once per update, before clipping). A
  // no-op otherwise or when already done for this update.
  void unscale_gradients(optim::Optimizer& optimizer);
  // Clipping over the optimizer's parameters, after unscaling (PyTorch's semantics).
  Tensor clip_grad_norm_(optim::Optimizer& optimizer, double max_norm, double norm_type = 2.0);
  void clip_grad_value_(optim::Optimizer& optimizer, double clip_value);
  // optimizer.step(), skipped under float16 when a gradient is inf or NaN (the scale then
  // backs off); see optimizer_step_was_skipped().
  void optimizer_step(optim::Optimizer& optimizer);
  bool optimizer_step_was_skipped() const { return step_was_skipped_; }
  const GradScaler* grad_scaler() const { return grad_scaler_ ? &*grad_scaler_ : nullptr; }
  GradScaler* grad_scaler() { return grad_scaler_ ? &*grad_scaler_ : nullptr; }

  // Suppresses gradient synchronization across processes while alive (gradient accumulation
  // micro-steps); nothing to suppress with one process or a model prepare_model did not wrap.
  class [[maybe_unused]] NoSync {
   public:
    explicit NoSync(distributed::DistributedDataParallel* ddp);
    NoSync(const NoSync&) = delete;
    NoSync& operator=(const NoSync&) = delete;

   private:
    std::optional<distributed::DistributedDataParallel::NoSync> guard_;
  };
  NoSync no_sync(nn::Module& model) const;
  // The wrapper prepare_model made for `model`, or null.
  distributed::DistributedDataParallel* data_parallel(const nn::Module& model) const;

  // Every process's `tensor` concatenated along dim 0 (shapes must agree beyond dim 0 and
  // in dim 0 too: pad_across_processes first when they may not).
  Tensor gather(const Tensor& tensor) const;
  // `tensor` padded along `dim` with `value` to the largest size across processes.
  Tensor pad_across_processes(const Tensor& tensor, int64_t dim = 0, double value = 0) const;
  // The reduction of `tensor` over processes (a new tensor).
  Tensor reduce(const Tensor& tensor, distributed::ReduceOp op = distributed::ReduceOp::Sum) const;
  void wait_for_everyone() const;

  bool is_main_process() const { return process_group_->rank() == 0; }
  bool is_local_main_process() const { return process_group_->local_rank() == 0; }
  int process_index() const { return process_group_->rank(); }
  int num_processes() const { return process_group_->size(); }
  bool is_distributed() const { return num_processes() > 1; }

  // Prints a line on the local main process only.
  template <typename... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) const {
    if (is_local_main_process()) print_line(fmt::format(format, std::forward<Args>(args)...));
  }

 private:
  void print_line(const std::string& line) const;
  // `tensor` where the process group moves tensors, contiguous.
  Tensor on_group_device(const Tensor& tensor) const;

  Device device_;
  MixedPrecision mixed_precision_;
  std::shared_ptr<distributed::ProcessGroup> process_group_;
  // One wrapper per prepared model, with the model it wraps (gone models are dropped).
  struct Wrapped {
    std::weak_ptr<const nn::Module> model;
    std::unique_ptr<distributed::DistributedDataParallel> wrapper;
  };
  std::vector<Wrapped> data_parallel_;
  std::optional<GradScaler> grad_scaler_;
  bool step_was_skipped_ = false;
};

}  // namespace accel
