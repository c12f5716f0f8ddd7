// MPI start-up, the bounded meeting at exit, abort, and the reductions on 16-bit floats.
#include "accel/distributed/mpi/mpi_runtime.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "accel/base/error.h"
#include "accel/base/half.h"

namespace accel::distributed::mpi {
namespace {

struct Runtime {
  std::once_flag started;
  bool owns_mpi = false;  // false when the program started MPI itself
  std::chrono::milliseconds exit_timeout{0};
  MPI_Comm exit_comm = MPI_COMM_NULL;
  // [Half, BFloat16][Sum, Max, Min]
  std::array<std::array<MPI_Op, 3>, 2> float16_ops{};
};

Runtime& runtime() {
  static Runtime* instance = new Runtime();  // never destroyed: used by the exit handler
  return *instance;
}

struct Plus {
  float operator()(float a, float b) const { return a + b; }
};
struct Larger {
  float operator()(float a, float b) const { return a > b ? a : b; }
};
struct Smaller {
  float operator()(float a, float b) const { return a < b ? a : b; }
};

// MPI_User_function: inout[i] = combine(in[i], inout[i]), computed in float.
template <typename T, typename Combine>
void combine_float16(void* in, void* inout, int* length, MPI_Datatype*) {
  const auto* a = static_cast<const T*>(in);
  auto* b = static_cast<T*>(inout);
  for (int i = 0; i < *length; ++i) b[i] = T(Combine{}(static_cast<float>(a[i]), b[i]));
}

template <typename T>
std::array<MPI_Op, 3> create_ops() {
  std::array<MPI_Op, 3> ops{};
  check(MPI_Op_create(&combine_float16<T, Plus>, 1, &ops[0]), "MPI_Op_create");
  check(MPI_Op_create(&combine_float16<T, Larger>, 1, &ops[1]), "MPI_Op_create");
  check(MPI_Op_create(&combine_float16<T, Smaller>, 1, &ops[2]), "MPI_Op_create");
  return ops;
}

int world_rank() {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// Meets the other processes at a barrier, polling so that a missing one costs at most the
// timeout; true when all arrived.
bool meet_others(MPI_Comm comm, std::chrono::milliseconds timeout) {
  MPI_Request request = MPI_REQUEST_NULL;
  if (MPI_Ibarrier(comm, &request) != MPI_SUCCESS) return false;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int done = 0;
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done != 0;
}

void finish_at_exit() {
  Runtime& rt = runtime();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (!meet_others(rt.exit_comm, rt.exit_timeout)) {
    std::fprintf(stderr,
                 "accel: rank %d: the other processes did not reach the end of the program "
                 "within %lld s (one may have failed or be stuck in a collective); aborting the "
                 "job\n",
                 world_rank(), static_cast<long long>(rt.exit_timeout.count() / 1000));
    abort_job(1);
  }
  MPI_Comm_free(&rt.exit_comm);
  for (auto& ops : rt.float16_ops) {
    for (MPI_Op& op : ops) MPI_Op_free(&op);
  }
  MPI_Finalize();
}

}  // namespace

void check(int status, std::string_view op) {
  if (status == MPI_SUCCESS) return;
  std::array<char, MPI_MAX_ERROR_STRING> text{};
  int length = 0;
  MPI_Error_string(status, text.data(), &length);
  fail(op, "MPI error: {}", std::string_view(text.data(), static_cast<size_t>(length)));
}

void start(std::chrono::milliseconds exit_timeout) {
  Runtime& rt = runtime();
  std::call_once(rt.started, [&] {
    int initialized = 0;
    check(MPI_Initialized(&initialized), "MPI_Initialized");
    int provided = 0;
    if (initialized) {
      check(MPI_Query_thread(&provided), "MPI_Query_thread");
    } else {
      check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
      rt.owns_mpi = true;
    }
    ACCEL_CHECK(provided == MPI_THREAD_MULTIPLE, "distributed::new_mpi_process_group",
                "the MPI library gives thread level {} but the MPI backend needs "
                "MPI_THREAD_MULTIPLE ({})",
                provided, MPI_THREAD_MULTIPLE);
    rt.float16_ops = {create_ops<Half>(), create_ops<BFloat16>()};
    if (rt.owns_mpi) {
      check(MPI_Comm_dup(MPI_COMM_WORLD, &rt.exit_comm), "MPI_Comm_dup");
      std::atexit(finish_at_exit);
    }
  });
  rt.exit_timeout = std::max(rt.exit_timeout, exit_timeout);
}

bool is_finalized() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return finalized != 0;
}

void abort_job(int exit_code) {
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);  // MPI_Abort does not return; should it, end this process at least
}

MPI_Op float16_op(Float16Kind kind, int op_index) {
  return runtime().float16_ops[static_cast<size_t>(kind)][static_cast<size_t>(op_index)];
}

}  // namespace accel::distributed::mpi
