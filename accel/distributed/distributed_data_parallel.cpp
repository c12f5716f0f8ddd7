// DistributedDataParallel: the model check and broadcast at construction, the reducer's setup.
#include "accel/distributed/distributed_data_parallel.h"

#include <cstring>

#include "accel/base/error.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/distributed/init_process_group.h"

namespace accel::distributed {
namespace {

constexpr const char* kOp = "DistributedDataParallel";

// One line per parameter and buffer: "name dtype [sizes]".
std::vector<std::string> describe(const nn::Module& module) {
  std::vector<std::string> lines;
  for (const auto& [name, tensor] : module.named_parameters()) {
    lines.push_back(fmt::format("parameter {} {} {}", name, tensor.dtype(), tensor.sizes()));
  }
  for (const auto& [name, tensor] : module.named_buffers()) {
    lines.push_back(fmt::format("buffer {} {} {}", name, tensor.dtype(), tensor.sizes()));
  }
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

// Every process's `text` (all_gather of the bytes, padded to the longest, on the group's
// device).
std::vector<std::string> gather_text(ProcessGroup& group, const std::string& text) {
  const TensorOptions on_group = TensorOptions(kInt64).device(group.device());
  Tensor length = full({1}, static_cast<int64_t>(text.size()), on_group);
  group.all_reduce(length, ReduceOp::Max)->wait();
  Tensor bytes = zeros({length.item<int64_t>() + 1}, kUInt8);  // + 1: never empty
  std::memcpy(bytes.data_ptr(), text.data(), text.size());
  std::vector<Tensor> gathered;
  group.all_gather(gathered, bytes.to(group.device()))->wait();
  std::vector<std::string> texts;
  for (const Tensor& t : gathered) {
    const Tensor on_host = t.to(Device(kCPU)).contiguous();
    texts.emplace_back(static_cast<const char*>(on_host.data_ptr()));
  }
  return texts;
}

}  // namespace

DistributedDataParallel::NoSync::NoSync(DistributedDataParallel& ddp)
    : reducer_(*ddp.reducer_), previous_(reducer_.sync()) {
  reducer_.set_sync(false);
}

DistributedDataParallel::NoSync::~NoSync() { reducer_.set_sync(previous_); }

DistributedDataParallel::DistributedDataParallel(nn::Module& module,
                                                 std::shared_ptr<ProcessGroup> group,
                                                 DistributedDataParallelOptions options)
    : module_(module),
      group_(group ? std::move(group) : default_process_group()),
      options_(options) {
  ACCEL_CHECK(options_.bucket_cap_mb > 0, kOp, "bucket_cap_mb must be positive, got {}",
              options_.bucket_cap_mb);
  check_same_model_everywhere();
  broadcast_state_from_rank0();

  std::vector<Tensor> parameters;
  std::vector<std::string> names;
  for (const auto& [name, parameter] : module_.named_parameters()) {
    if (!parameter.requires_grad()) continue;  // frozen: nothing to average
    parameters.push_back(parameter);
    names.push_back(name);
  }
  GradientReducerOptions reducer_options;
  reducer_options.bucket_bytes = static_cast<int64_t>(options_.bucket_cap_mb * (1 << 20));
  reducer_options.find_unused_parameters = options_.find_unused_parameters;
  if (options_.broadcast_buffers && !module_.buffers().empty()) {
    reducer_options.after_pass = [this] {
      for (Tensor& buffer : module_.buffers()) group_->broadcast(buffer, 0)->wait();
    };
  }
  reducer_ = std::make_shared<GradientReducer>(std::move(parameters), std::move(names), group_,
                                               std::move(reducer_options));
  reducer_->install_hooks();
}

void DistributedDataParallel::check_same_model_everywhere() const {
  const std::vector<std::string> mine = describe(module_);
  const std::vector<std::string> texts = gather_text(*group_, join_lines(mine));
  const std::vector<std::string> reference = split_lines(texts.front());
  for (size_t r = 1; r < texts.size(); ++r) {
    const std::vector<std::string> theirs = split_lines(texts[r]);
    for (size_t line = 0; line < std::max(reference.size(), theirs.size()); ++line) {
      const std::string a = line < reference.size() ? reference[line] : "nothing";
      const std::string b = line < theirs.size() ? theirs[line] : "nothing";
      ACCEL_CHECK(a == b, kOp,
                  "the processes hold different models: entry {} is '{}' on rank 0 but '{}' on "
                  "rank {} ({} against {} parameters and buffers)",
                  line, a, b, r, reference.size(), theirs.size());
    }
  }
}

void DistributedDataParallel::broadcast_state_from_rank0() const {
  NoGradGuard no_grad;
  std::vector<std::shared_ptr<Work>> works;
  std::vector<Tensor> tensors = module_.parameters();
  for (const Tensor& buffer : module_.buffers()) tensors.push_back(buffer);
  for (Tensor& tensor : tensors) {
    ACCEL_CHECK(tensor.is_contiguous(), kOp, "parameters and buffers must be contiguous");
    works.push_back(group_->broadcast(tensor, 0));
  }
  for (const auto& work : works) work->wait();
}

}  // namespace accel::distributed
