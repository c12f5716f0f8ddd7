// NcclProcessGroup: each collective is checked on the caller's thread, then queued on the
// group's own CUDA stream behind the caller's current stream (an event), as one NCCL call on
// the tensors' memory; an event recorded after it is the Work handle's. A watchdog thread
// polls those events: it releases the tensors of finished collectives and aborts the job when
// one is not done within the timeout or NCCL reports an asynchronous error.
#include "accel/distributed/nccl_process_group.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "accel/base/error.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/cuda.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/stream.h"
#include "accel/distributed/collective_checks.h"
#include "accel/distributed/cuda/nccl_library.h"
#include "accel/distributed/mpi_process_group.h"
#include "accel/distributed/tcp_rendezvous.h"
#include "accel/kernels/cuda/cuda_check.h"

namespace accel::distributed {
namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kMake = "distributed::new_nccl_process_group";

ncclDataType_t nccl_datatype(ScalarType dtype) {
  switch (dtype) {
    case kFloat32:
      return ncclFloat32;
    case kFloat64:
      return ncclFloat64;
    case kFloat16:
      return ncclFloat16;
    case kBFloat16:
      return ncclBfloat16;
    case kInt64:
      return ncclInt64;
    case kInt32:
      return ncclInt32;
    case kUInt8:
    case kBool:  // bytes holding 0 or 1, reduced with Max (or) and Min (and)
      return ncclUint8;
  }
  fail("NcclProcessGroup", "no NCCL type for {}", dtype);
}

ncclRedOp_t nccl_op(ReduceOp op, ScalarType dtype) {
  if (dtype == kBool) return op == ReduceOp::Min ? ncclMin : ncclMax;
  switch (op) {
    case ReduceOp::Sum:
      return ncclSum;
    case ReduceOp::Mean:
      return ncclAvg;  // floating-point types only (checked at issue time)
    case ReduceOp::Max:
      return ncclMax;
    case ReduceOp::Min:
      return ncclMin;
  }
  fail("NcclProcessGroup", "unknown reduction");
}

std::chrono::milliseconds timeout_from(NcclOptions options) {
  const char* value = std::getenv("ACCEL_DISTRIBUTED_TIMEOUT");
  if (value == nullptr || *value == '\0') return options.timeout;
  char* end = nullptr;
  const long seconds = std::strtol(value, &end, 10);
  ACCEL_CHECK(*end == '\0' && seconds > 0, kMake,
              "ACCEL_DISTRIBUTED_TIMEOUT must be a positive whole number of seconds, got '{}'",
              value);
  return std::chrono::seconds(seconds);
}

cudaStream_t native(const Stream& stream) { return static_cast<cudaStream_t>(stream.handle()); }

// One issued collective, shared by its Work handle and the watchdog.
struct Collective {
  std::string name;
  Clock::time_point issued;
  Event done;                   // recorded on the NCCL stream after the collective
  std::vector<Tensor> tensors;  // what the collective reads and writes, kept until it is done
};

class NcclProcessGroup;

class NcclWork final : public Work {
 public:
  NcclWork(std::shared_ptr<const NcclProcessGroup> group, std::shared_ptr<Collective> collective,
           bool blocks_host)
      : group_(std::move(group)), collective_(std::move(collective)), blocks_host_(blocks_host) {}

  void wait() override;
  bool is_completed() const override { return collective_->done.query(); }

 private:
  std::shared_ptr<const NcclProcessGroup> group_;
  std::shared_ptr<Collective> collective_;
  bool blocks_host_;
};

class NcclProcessGroup final : public ProcessGroup,
                               public std::enable_shared_from_this<NcclProcessGroup> {
 public:
  NcclProcessGroup(const LaunchEnvironment& env, Device device, std::chrono::milliseconds timeout,
                   ncclUniqueId id, std::shared_ptr<ProcessGroup> mpi)
      : nccl_(cuda::nccl_library()),
        device_(device),
        rank_(env.rank),
        size_(env.world_size),
        local_rank_(env.local_rank),
        timeout_(timeout),
        mpi_(std::move(mpi)) {
    cuda::DeviceGuard guard(device_);
    cudaStream_t stream = nullptr;
    ACCEL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), kMake);
    stream_ = Stream(device_, stream);
    const ncclResult_t made = nccl_.ncclCommInitRank(&comm_, size_, id, rank_);
    if (made != ncclSuccess) {
      (void)cudaStreamDestroy(stream);
      cuda::check_nccl(made, kMake, "ncclCommInitRank");
    }
    watchdog_ = std::thread([this] { watch(); });
  }

  ~NcclProcessGroup() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    watchdog_.join();
    // Collectives whose handles were dropped may still run: give them the timeout, then free
    // the communicator (abort it when they did not finish: destroying would wait forever).
    // A communicator NCCL reports failed (a peer went away) will not finish them.
    bool finished = !communicator_failed();
    try {
      const auto deadline = Clock::now() + timeout_;
      for (const auto& collective : in_flight_) {
        while (finished && !collective->done.query()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          finished = Clock::now() < deadline && !communicator_failed();
        }
      }
    } catch (const std::exception&) {
      finished = false;  // the device failed: nothing to wait for
    }
    in_flight_.clear();
    if (finished) {
      (void)nccl_.ncclCommDestroy(comm_);
    } else {
      (void)nccl_.ncclCommAbort(comm_);
    }
    (void)cudaStreamDestroy(native(stream_));
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  Device device() const override { return device_; }

  std::shared_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op) override {
    const char* name = "ProcessGroup::all_reduce";
    check_tensor(tensor, name);
    check_reduce_op(op, tensor.dtype(), name);
    return issue(name, {tensor}, false, [&](cudaStream_t stream) {
      ACCEL_NCCL_CHECK(nccl_.ncclAllReduce(tensor.data_ptr(), tensor.data_ptr(), count(tensor),
                                           nccl_datatype(tensor.dtype()),
                                           nccl_op(op, tensor.dtype()), comm_, stream),
                       name);
    });
  }

  std::shared_ptr<Work> broadcast(Tensor& tensor, int root) override {
    const char* name = "ProcessGroup::broadcast";
    check_tensor(tensor, name);
    check_root(root, size_, name);
    return issue(name, {tensor}, false, [&](cudaStream_t stream) {
      ACCEL_NCCL_CHECK(nccl_.ncclBroadcast(tensor.data_ptr(), tensor.data_ptr(), count(tensor),
                                           nccl_datatype(tensor.dtype()), root, comm_, stream),
                       name);
    });
  }

  std::shared_ptr<Work> all_gather(std::vector<Tensor>& outputs, const Tensor& input) override {
    const char* name = "ProcessGroup::all_gather";
    check_tensor(input, name, "input");
    check_same_input_everywhere(input, name);
    const Tensor gathered = gather_destination(input, size_, outputs);
    return issue(name, {input, gathered}, false, [&](cudaStream_t stream) {
      ACCEL_NCCL_CHECK(nccl_.ncclAllGather(input.data_ptr(), gathered.data_ptr(), count(input),
                                           nccl_datatype(input.dtype()), comm_, stream),
                       name);
    });
  }

  std::shared_ptr<Work> reduce_scatter(Tensor& output, const std::vector<Tensor>& inputs,
                                       ReduceOp op) override {
    const char* name = "ProcessGroup::reduce_scatter";
    check_scatter_inputs(output, inputs, size_, name);
    check_tensor(output, name, "output");
    check_reduce_op(op, output.dtype(), name);
    const Tensor packed =
        packed_scatter_inputs(inputs);  // on the caller's stream, which the collective waits for
    return issue(name, {output, packed}, false, [&](cudaStream_t stream) {
      ACCEL_NCCL_CHECK(nccl_.ncclReduceScatter(packed.data_ptr(), output.data_ptr(), count(output),
                                               nccl_datatype(output.dtype()),
                                               nccl_op(op, output.dtype()), comm_, stream),
                       name);
    });
  }

  // A one-element sum every process must join; its wait() blocks the host until it is done.
  std::shared_ptr<Work> barrier() override {
    const char* name = "ProcessGroup::barrier";
    Tensor token = zeros({1}, TensorOptions(kUInt8).device(device_));
    return issue(name, {token}, true, [&](cudaStream_t stream) {
      ACCEL_NCCL_CHECK(nccl_.ncclAllReduce(token.data_ptr(), token.data_ptr(), 1, ncclUint8,
                                           ncclSum, comm_, stream),
                       name);
    });
  }

  [[noreturn]] void abort(int exit_code) override { end_job(exit_code); }

  // Ends the job when NCCL reports that the communicator failed (a peer went away, a network
  // error): its collectives would otherwise never complete.
  void check_async_error(const std::string& during) const {
    const ncclResult_t error = async_error();
    if (error == ncclSuccess) return;
    fatal(fmt::format("NCCL reported an error during or before {}: {}", during,
                      nccl_.ncclGetErrorString(error)));
  }

  [[noreturn]] void fatal(const std::string& message) const {
    std::fprintf(stderr, "accel: rank %d: %s; aborting the job\n", rank_, message.c_str());
    end_job(1);
  }

  [[noreturn]] void end_job(int exit_code) const {
    std::fflush(stdout);
    std::fflush(stderr);
    (void)nccl_.ncclCommAbort(comm_);  // peers blocked in a collective with us fail too
    if (mpi_) mpi_->abort(exit_code);  // under mpirun: MPI_Abort ends every process
    std::_Exit(exit_code);             // under torchrun: the launcher ends the others
  }

 private:
  void check_tensor(const Tensor& tensor, const char* op, const char* what = "tensor") const {
    check_collective_tensor(tensor, op, what);
    ACCEL_CHECK(tensor.is_cuda(), op,
                "the NCCL backend moves CUDA tensors, got a CPU {} (CPU tensors go through the "
                "MPI backend)",
                what);
    ACCEL_CHECK(tensor.device() == device_, op,
                "the {} is on {} but this process's NCCL group uses {} (one device per process)",
                what, tensor.device(), device_);
  }

  // The communicator's asynchronous error; ncclSuccess while it works (or its state is unknown).
  ncclResult_t async_error() const {
    ncclResult_t error = ncclSuccess;
    if (nccl_.ncclCommGetAsyncError(comm_, &error) != ncclSuccess) return ncclSuccess;
    return error == ncclInProgress ? ncclSuccess : error;
  }
  bool communicator_failed() const { return async_error() != ncclSuccess; }

  static size_t count(const Tensor& tensor) { return static_cast<size_t>(tensor.numel()); }

  // Ranks that gather tensors of different sizes would read past buffers: compare first (one
  // small all_gather, waited for on the host).
  void check_same_input_everywhere(const Tensor& input, const char* op) {
    if (size_ == 1) return;
    Tensor mine = empty({3}, kInt64);
    int64_t* values = mine.data_ptr<int64_t>();
    values[0] = static_cast<int64_t>(input.dtype());
    values[1] = input.dim();
    values[2] = input.numel();
    Tensor on_device = mine.to(device_);
    Tensor all = empty({size_, 3}, TensorOptions(kInt64).device(device_));
    issue(op, {on_device, all}, false, [&](cudaStream_t stream) {
      ACCEL_NCCL_CHECK(
          nccl_.ncclAllGather(on_device.data_ptr(), all.data_ptr(), 3, ncclInt64, comm_, stream),
          op);
    })->wait();
    const Tensor on_host = all.to(Device(kCPU));
    const int64_t* theirs = on_host.data_ptr<int64_t>();
    for (int r = 0; r < size_; ++r) {
      const int64_t* row = theirs + 3 * r;
      ACCEL_CHECK(std::equal(values, values + 3, row), op,
                  "the ranks' inputs differ: rank {} has {} with {} elements in {} dims, rank {} "
                  "has {} with {} elements in {} dims",
                  rank_, input.dtype(), input.numel(), input.dim(), r,
                  static_cast<ScalarType>(row[0]), row[2], row[1]);
    }
  }

  // Queues `launch` (the NCCL call) on the group's stream after the caller's current stream,
  // and hands its completion to the watchdog. The lock keeps every process's order of
  // collectives the order in which they were issued.
  template <typename Launch>
  std::shared_ptr<Work> issue(const char* name, std::vector<Tensor> tensors, bool blocks_host,
                              Launch&& launch) {
    check_async_error(name);
    std::lock_guard issuing(issue_mutex_);
    cuda::DeviceGuard guard(device_);
    ready_.record(current_stream(device_));
    ready_.block(stream_);
    const bool empty =
        std::all_of(tensors.begin(), tensors.end(), [](const Tensor& t) { return t.numel() == 0; });
    if (!empty) launch(native(stream_));
    auto collective = std::make_shared<Collective>();
    collective->name = name;
    collective->issued = Clock::now();
    collective->done.record(stream_);
    collective->tensors = std::move(tensors);
    {
      std::lock_guard lock(mutex_);
      in_flight_.push_back(collective);
    }
    wake_.notify_all();
    return std::make_shared<NcclWork>(shared_from_this(), std::move(collective), blocks_host);
  }

  // The watchdog: every millisecond while collectives are in flight, releases the finished
  // ones' tensors and aborts the job on a timeout or an asynchronous NCCL error.
  void watch() {
    std::unique_lock lock(mutex_);
    while (true) {
      wake_.wait(lock, [&] { return stopping_ || !in_flight_.empty(); });
      if (stopping_) return;
      try {
        // This thread chose no device: without the guard its queries would run in (and make) a
        // context on device 0, whatever device the group uses.
        cuda::DeviceGuard on_device(device_);
        check_async_error("a pending collective");
        for (auto it = in_flight_.begin(); it != in_flight_.end();) {
          Collective& collective = **it;
          if (collective.done.query()) {
            collective.tensors.clear();  // the device is done with them
            it = in_flight_.erase(it);
            continue;
          }
          const auto waited = Clock::now() - collective.issued;
          if (waited > timeout_) {
            fatal(
                fmt::format("{} did not complete within {} ms: another process has stopped or "
                            "issued different collectives",
                            collective.name, timeout_.count()));
          }
          ++it;
        }
      } catch (const std::exception& e) {
        fatal(fmt::format("the NCCL watchdog failed: {}", e.what()));
      }
      wake_.wait_for(lock, std::chrono::milliseconds(1), [&] { return stopping_; });
    }
  }

  const cuda::NcclLibrary& nccl_;
  Device device_;
  int rank_;
  int size_;
  int local_rank_;
  std::chrono::milliseconds timeout_;
  std::shared_ptr<ProcessGroup> mpi_;  // the MPI group that shared the id under mpirun
  ncclComm_t comm_ = nullptr;
  Stream stream_;
  std::mutex issue_mutex_;
  Event ready_;  // the caller's stream at issue time (guarded by issue_mutex_)

  std::mutex mutex_;
  std::condition_variable wake_;
  std::list<std::shared_ptr<Collective>> in_flight_;
  bool stopping_ = false;
  std::thread watchdog_;
};

void NcclWork::wait() {
  group_->check_async_error(collective_->name);
  collective_->done.block(current_stream(group_->device()));
  if (!blocks_host_) return;
  // The watchdog ends the job if this never finishes.
  while (!collective_->done.query()) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    group_->check_async_error(collective_->name);
  }
}

// NCCL's id for the new communicator, made by rank 0 and sent to the others: through MPI under
// mpirun (`mpi` receives the MPI group), else through a TCP rendezvous at the master's address.
ncclUniqueId share_unique_id(const LaunchEnvironment& env, std::chrono::milliseconds timeout,
                             std::shared_ptr<ProcessGroup>& mpi) {
  ncclUniqueId id{};
  if (env.rank == 0) ACCEL_NCCL_CHECK(cuda::nccl_library().ncclGetUniqueId(&id), kMake);
  if (env.world_size == 1) return id;
  if (env.launcher == Launcher::Mpi) {
    ACCEL_CHECK(mpi_is_compiled(), kMake,
                "under mpirun the NCCL backend shares its communicator's id through MPI, but this "
                "build of accel has no MPI backend (install libopenmpi-dev and configure with "
                "-DACCEL_MPI=ON, or launch with torchrun)");
    MpiOptions options;
    options.timeout = timeout;
    mpi = new_mpi_process_group(options);
    ACCEL_CHECK(mpi->rank() == env.rank && mpi->size() == env.world_size, kMake,
                "MPI says rank {} of {} but the launcher's variables say rank {} of {}",
                mpi->rank(), mpi->size(), env.rank, env.world_size);
    Tensor bytes = empty({static_cast<int64_t>(sizeof(id))}, kUInt8);
    std::memcpy(bytes.data_ptr(), &id, sizeof(id));
    mpi->broadcast(bytes, 0)->wait();
    std::memcpy(&id, bytes.data_ptr(), sizeof(id));
    return id;
  }
  // Recent torchrun launchers keep their own store listening at MASTER_PORT and say so to the
  // processes they start: the rendezvous then uses the next port.
  const char* agent_store = std::getenv("TORCHELASTIC_USE_AGENT_STORE");
  const bool port_taken = agent_store != nullptr && std::string_view(agent_store) == "True";
  const int port = port_taken ? env.master_port + 1 : env.master_port;
  std::vector<uint8_t> payload;
  if (env.rank == 0) {
    const auto* first = reinterpret_cast<const uint8_t*>(&id);
    payload.assign(first, first + sizeof(id));
  }
  const std::vector<uint8_t> received = tcp_rendezvous_broadcast(
      env.master_addr, port, env.rank, env.world_size, std::move(payload), timeout);
  ACCEL_CHECK(received.size() == sizeof(id), kMake,
              "rank 0 at {}:{} sent {} bytes for NCCL's id, expected {}", env.master_addr, port,
              received.size(), sizeof(id));
  std::memcpy(&id, received.data(), sizeof(id));
  return id;
}

}  // namespace

bool nccl_is_compiled() { return true; }

std::shared_ptr<ProcessGroup> new_nccl_process_group(const LaunchEnvironment& env, Device device,
                                                     NcclOptions options) {
  ACCEL_CHECK(device.is_cuda(), kMake,
              "the NCCL backend needs a CUDA device, got {} (CPU tensors go through the MPI "
              "backend)",
              device);
  cuda::check_device(device, kMake);
  ACCEL_CHECK(env.world_size >= 1 && env.rank >= 0 && env.rank < env.world_size, kMake,
              "rank {} is not a rank of a world of size {}", env.rank, env.world_size);
  const std::chrono::milliseconds timeout = timeout_from(options);
  cuda::nccl_library();  // a missing library is an error before any process waits for this one
  std::shared_ptr<ProcessGroup> mpi;
  const ncclUniqueId id = share_unique_id(env, timeout, mpi);
  return std::make_shared<NcclProcessGroup>(env, device, timeout, id, std::move(mpi));
}

}  // namespace accel::distributed
