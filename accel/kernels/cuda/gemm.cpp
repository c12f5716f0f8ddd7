// Matrix products on the GPU, operands read in place: cuBLASLt for float32/float16/bfloat16
// (float32 accumulation, TF32 only when allowed), cuBLAS for float64 and for whatever cuBLASLt
// has no algorithm for. cuBLAS is column-major: row-major out = a·b is computed as outᵀ = bᵀ·aᵀ.
#include "accel/kernels/cuda/gemm.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "accel/base/device.h"
#include "accel/base/error.h"
#include "accel/kernels/cuda/cublas_library.h"
#include "accel/kernels/cuda/cuda_check.h"
#include "accel/kernels/cuda/launch.h"

namespace accel::cuda {

namespace {

std::atomic<bool> tf32_allowed{false};

// Scratch memory cuBLAS(Lt) may use in one call (split-K partial sums and the like): 32 MiB,
// what Hopper's fastest kernels ask for (PyTorch and llm.c use the same); trifling on an A100.
constexpr size_t kWorkspaceBytes = size_t{32} << 20;
// cuBLASLt's batch count is an int32: longer batches are cut into calls of at most this many.
constexpr int64_t kMaxBatchCount = std::numeric_limits<int32_t>::max();
// Distinct problems whose cuBLASLt algorithm is remembered; past this the cache starts over
// (a bound on memory for programs that multiply ever-new shapes).
constexpr size_t kMaxCachedAlgos = 4096;

// The product a gemm call computes, as error messages name it.
struct Shapes {
  ScalarType dtype;
  IntArrayRef batch;
  int64_t m, k, n;
};

void check_cublas(cublasStatus_t status, const char* call, const Shapes& s) {
  if (status == CUBLAS_STATUS_SUCCESS) [[likely]] {
    return;
  }
  fail("matmul", "{} failed with {} ({}) for {} operands [{}, {}] x [{}, {}] with batch dims {}",
       call, cublas_library().cublasLtGetStatusName(status),
       cublas_library().cublasLtGetStatusString(status), s.dtype, s.m, s.k, s.k, s.n, s.batch);
}

// One device's cuBLAS state, created on first use and kept for the process's lifetime, as the
// stream pool of core/cuda/runtime.cpp: destroying handles from a static destructor would race
// the CUDA runtime's own teardown at exit, and the driver frees all of it when the process ends.
struct DeviceBlas {
  std::mutex mutex;  // guards creating the handles and the workspace map
  cublasLtHandle_t lt = nullptr;
  cublasHandle_t blas = nullptr;
  // A cuBLAS call first points the shared handle at its stream and workspace.
  std::mutex blas_call_mutex;
  // One workspace per stream: kernels queued on two streams may run at the same time.
  // (Streams come from a pool and are never destroyed, so a handle never names another stream.)
  std::map<cudaStream_t, void*> workspaces;
};

DeviceBlas& device_blas(int device) {
  static std::array<DeviceBlas, kMaxCudaDevices> devices;
  return devices[static_cast<size_t>(device)];
}

// Where one product runs: its (current) device, stream and the stream's workspace.
struct Context {
  int device;
  cudaStream_t stream;
  void* workspace;
  DeviceBlas* blas;
};

Context context_for(int device, cudaStream_t stream) {
  DeviceBlas& d = device_blas(device);
  std::lock_guard lock(d.mutex);
  void*& workspace = d.workspaces[stream];
  if (workspace == nullptr) ACCEL_CUDA_CHECK(cudaMalloc(&workspace, kWorkspaceBytes), "matmul");
  return {device, stream, workspace, &d};
}

cublasLtHandle_t lt_handle(const Context& c, const Shapes& shapes) {
  std::lock_guard lock(c.blas->mutex);
  if (c.blas->lt == nullptr)
    check_cublas(cublas_library().cublasLtCreate(&c.blas->lt), "cublasLtCreate", shapes);
  return c.blas->lt;
}

cublasHandle_t blas_handle(const Context& c, const Shapes& shapes) {
  std::lock_guard lock(c.blas->mutex);
  if (c.blas->blas == nullptr) {
    cublasHandle_t handle = nullptr;
    check_cublas(cublas_library().cublasCreate_v2(&handle), "cublasCreate", shapes);
    // 16-bit products add their split-K partial sums in float32, as the cuBLASLt path does.
    check_cublas(cublas_library().cublasSetMathMode(
                     handle, CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION),
                 "cublasSetMathMode", shapes);
    c.blas->blas = handle;
  }
  return c.blas->blas;
}

// How cuBLAS reads the transpose xᵀ of a rows x cols operand x: the column-major matrix
// stored at x's data (stored_rows x stored_cols, leading dimension ld) and the op that turns it
// into xᵀ. A row-major x is xᵀ stored column-major; a column-major x is x, transposed by the op.
struct CublasView {
  cublasOperation_t op;
  int64_t stored_rows, stored_cols, ld;
};

CublasView transposed_view(int64_t rows, int64_t cols, const MatrixOperand& x) {
  // A single row or column is never stepped over: its stride may be anything, while cuBLAS
  // wants ld >= stored_rows (as the CPU's layout_of picks the outer stride).
  if (is_row_major(rows, cols, x.row_stride, x.col_stride)) {
    return {CUBLAS_OP_N, cols, rows, rows <= 1 ? std::max<int64_t>(cols, 1) : x.row_stride};
  }
  return {CUBLAS_OP_T, rows, cols, cols <= 1 ? std::max<int64_t>(rows, 1) : x.col_stride};
}

// One batch dim of the product, with the stride of each operand in elements.
struct BatchDim {
  int64_t size, a, b, out;
};

// The batch dims without those of size 1 and with neighbours merged wherever every operand
// steps uniformly across both (broadcast stride-0 dims included), outermost first. At most one
// dim left means the whole product is one strided-batched call.
std::vector<BatchDim> merged_batch_dims(IntArrayRef sizes, const MatrixOperand& a,
                                        const MatrixOperand& b, int64_t matrix_elements) {
  std::vector<int64_t> out_strides(sizes.size());
  int64_t out_stride = matrix_elements;  // out is contiguous
  for (size_t d = sizes.size(); d-- > 0;) {
    out_strides[d] = out_stride;
    out_stride *= sizes[d];
  }
  std::vector<BatchDim> dims;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1) continue;
    const BatchDim next{sizes[d], a.batch_strides[d], b.batch_strides[d], out_strides[d]};
    if (!dims.empty()) {
      BatchDim& outer = dims.back();
      if (outer.a == next.a * next.size && outer.b == next.b * next.size &&
          outer.out == next.out * next.size) {
        outer = {outer.size * next.size, next.a, next.b, next.out};
        continue;
      }
    }
    dims.push_back(next);
  }
  return dims;
}

// The largest power of two up to 256 dividing the byte address of every matrix of an operand
// (its first one and all batch steps): cuBLASLt picks kernels by the alignment promised.
uint32_t alignment(const void* data, const std::vector<BatchDim>& dims, int64_t BatchDim::*stride,
                   int64_t element_size) {
  auto bits = reinterpret_cast<uintptr_t>(data) | uintptr_t{256};
  for (const BatchDim& dim : dims) bits |= static_cast<uintptr_t>(dim.*stride * element_size);
  return static_cast<uint32_t>(bits & (~bits + 1));
}

// How a dtype is multiplied: its cuBLAS element type and the type products accumulate in.
struct Precision {
  cudaDataType_t type;
  cublasComputeType_t compute;
};

// Integer and bool products are errors, as in PyTorch on CUDA.
Precision precision_for(ScalarType dtype) {
  switch (dtype) {
    case kFloat32:
      return {CUDA_R_32F, allow_tf32() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F};
    case kFloat64:
      return {CUDA_R_64F, CUBLAS_COMPUTE_64F};
    case kFloat16:
      return {CUDA_R_16F, CUBLAS_COMPUTE_32F};
    case kBFloat16:
      return {CUDA_R_16BF, CUBLAS_COMPUTE_32F};
    default:
      fail("matmul", "not implemented for dtype {} on CUDA", dtype);
  }
}

// The product as cuBLAS computes it, outᵀ (n x m) = bᵀ · aᵀ: cuBLAS's A is our b, its B our a.
struct Problem {
  Shapes shapes;
  Precision precision;
  CublasView bt, at;
  uint32_t b_alignment, a_alignment, out_alignment;
  Context context;
};

// One strided-batched call: `count` products whose matrices start at a, b and out and lie
// the given strides (in elements) apart.
struct Call {
  const char* a;
  const char* b;
  char* out;
  int64_t count;
  int64_t a_stride, b_stride, out_stride;
};

// Calls f(call) for each strided-batched call covering the batch: the innermost merged dim is
// each call's batch (cut at kMaxBatchCount), the dims outside it are looped over on the host.
template <typename F>
void for_each_call(const std::vector<BatchDim>& dims, const void* a, const void* b, void* out,
                   int64_t element_size, F&& f) {
  const BatchDim inner = dims.empty() ? BatchDim{1, 0, 0, 0} : dims.back();
  const size_t outer_dims = dims.empty() ? 0 : dims.size() - 1;
  int64_t outer_count = 1;
  for (size_t d = 0; d < outer_dims; ++d) outer_count *= dims[d].size;
  for (int64_t index = 0; index < outer_count; ++index) {
    int64_t a_offset = 0, b_offset = 0, out_offset = 0;
    int64_t rest = index;
    for (size_t d = outer_dims; d-- > 0;) {
      const int64_t i = rest % dims[d].size;
      rest /= dims[d].size;
      a_offset += i * dims[d].a;
      b_offset += i * dims[d].b;
      out_offset += i * dims[d].out;
    }
    for (int64_t first = 0; first < inner.size; first += kMaxBatchCount) {
      const int64_t count = std::min(kMaxBatchCount, inner.size - first);
      // A single product has no batch stride (keeps the algorithm cache's keys canonical).
      const bool batched = count > 1;
      f(Call{static_cast<const char*>(a) + (a_offset + first * inner.a) * element_size,
             static_cast<const char*>(b) + (b_offset + first * inner.b) * element_size,
             static_cast<char*>(out) + (out_offset + first * inner.out) * element_size, count,
             batched ? inner.a : 0, batched ? inner.b : 0, batched ? inner.out : 0});
    }
  }
}

// ---- cuBLAS: float64, and any product cuBLASLt has no algorithm for ----

void blas_gemm(const Problem& p, const Call& c) {
  const Shapes& s = p.shapes;
  cublasHandle_t handle = blas_handle(p.context, s);
  // alpha = 1 and beta = 0 in the compute type, in host memory.
  const double alpha64 = 1.0, beta64 = 0.0;
  const float alpha32 = 1.0f, beta32 = 0.0f;
  const bool float64 = p.precision.compute == CUBLAS_COMPUTE_64F;
  const void* alpha = float64 ? static_cast<const void*>(&alpha64) : &alpha32;
  const void* beta = float64 ? static_cast<const void*>(&beta64) : &beta32;
  const cudaDataType_t type = p.precision.type;
  std::lock_guard lock(p.context.blas->blas_call_mutex);
  check_cublas(cublas_library().cublasSetStream_v2(handle, p.context.stream), "cublasSetStream", s);
  // After cublasSetStream, which resets the handle to cuBLAS's own shared workspace.
  check_cublas(cublas_library().cublasSetWorkspace_v2(handle, p.context.workspace, kWorkspaceBytes),
               "cublasSetWorkspace", s);
  check_cublas(cublas_library().cublasGemmStridedBatchedEx_64(
                   handle, p.bt.op, p.at.op, s.n, s.m, s.k, alpha, c.b, type, p.bt.ld, c.b_stride,
                   c.a, type, p.at.ld, c.a_stride, beta, c.out, type, s.n, c.out_stride, c.count,
                   p.precision.compute, CUBLAS_GEMM_DEFAULT),
               "cublasGemmStridedBatchedEx_64", s);
}

// ---- cuBLASLt: float32, float16, bfloat16 ----

// Descriptors live in the caller's stack memory (cuBLASLt's *Init functions): nothing to free.
struct LtMatmul {
  cublasLtMatmulDescOpaque_t desc;
  cublasLtMatrixLayoutOpaque_t a_layout, b_layout, out_layout;  // cuBLAS's A (our bᵀ), B, D
};

template <typename Value>
void set_layout(cublasLtMatrixLayoutOpaque_t& layout, cublasLtMatrixLayoutAttribute_t attribute,
                Value value, const Shapes& shapes) {
  check_cublas(
      cublas_library().cublasLtMatrixLayoutSetAttribute(&layout, attribute, &value, sizeof(value)),
      "cublasLtMatrixLayoutSetAttribute", shapes);
}

void init_layout(cublasLtMatrixLayoutOpaque_t& layout, cudaDataType_t type, int64_t rows,
                 int64_t cols, int64_t ld, int64_t count, int64_t stride, const Shapes& shapes) {
  check_cublas(cublas_library().cublasLtMatrixLayoutInit_internal(&layout, sizeof(layout), type,
                                                                  static_cast<uint64_t>(rows),
                                                                  static_cast<uint64_t>(cols), ld),
               "cublasLtMatrixLayoutInit", shapes);
  if (count > 1) {
    set_layout(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, static_cast<int32_t>(count), shapes);
    set_layout(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, stride, shapes);
  }
}

template <typename Value>
void set_preference(cublasLtMatmulPreferenceOpaque_t& preference,
                    cublasLtMatmulPreferenceAttributes_t attribute, Value value,
                    const Shapes& shapes) {
  check_cublas(cublas_library().cublasLtMatmulPreferenceSetAttribute(&preference, attribute, &value,
                                                                     sizeof(value)),
               "cublasLtMatmulPreferenceSetAttribute", shapes);
}

// Everything the descriptors and preferences of a call say, and the device: equal keys get
// the same answer from the heuristic.
using AlgoKey = std::array<int64_t, 20>;

AlgoKey algo_key(const Problem& p, const Call& c) {
  return {p.context.device,
          static_cast<int64_t>(p.precision.type),
          static_cast<int64_t>(p.precision.compute),
          static_cast<int64_t>(p.bt.op),
          static_cast<int64_t>(p.at.op),
          p.bt.stored_rows,
          p.bt.stored_cols,
          p.bt.ld,
          p.at.stored_rows,
          p.at.stored_cols,
          p.at.ld,
          p.shapes.n,
          p.shapes.m,
          c.count,
          c.b_stride,
          c.a_stride,
          c.out_stride,
          p.b_alignment,
          p.a_alignment,
          p.out_alignment};
}

// The heuristic's answers so far; nullopt where it had no algorithm.
struct AlgoCache {
  std::mutex mutex;
  std::map<AlgoKey, std::optional<cublasLtMatmulAlgo_t>> algos;
};

AlgoCache& algo_cache() {
  static AlgoCache cache;
  return cache;
}

// cuBLASLt's best algorithm for the call, asked once per distinct problem and device.
std::optional<cublasLtMatmulAlgo_t> find_algo(const Problem& p, cublasLtHandle_t handle,
                                              LtMatmul& lt, const Call& c) {
  const AlgoKey key = algo_key(p, c);
  AlgoCache& cache = algo_cache();
  std::lock_guard lock(cache.mutex);
  if (auto it = cache.algos.find(key); it != cache.algos.end()) return it->second;

  cublasLtMatmulPreferenceOpaque_t preference;
  check_cublas(
      cublas_library().cublasLtMatmulPreferenceInit_internal(&preference, sizeof(preference)),
      "cublasLtMatmulPreferenceInit", p.shapes);
  set_preference(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                 static_cast<uint64_t>(kWorkspaceBytes), p.shapes);
  set_preference(preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, p.b_alignment, p.shapes);
  set_preference(preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, p.a_alignment, p.shapes);
  set_preference(preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, p.out_alignment, p.shapes);
  set_preference(preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, p.out_alignment, p.shapes);
  if (p.precision.type != CUDA_R_32F) {
    // Split-K partial sums must be added in float32 too, not in the 16-bit output type.
    set_preference(preference, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK,
                   static_cast<uint32_t>(CUBLASLT_REDUCTION_SCHEME_NONE |
                                         CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE),
                   p.shapes);
  }
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  const cublasStatus_t status = cublas_library().cublasLtMatmulAlgoGetHeuristic(
      handle, &lt.desc, &lt.a_layout, &lt.b_layout, &lt.out_layout, &lt.out_layout, &preference, 1,
      &result, &found);
  // A failed query (NOT_SUPPORTED, or INVALID_VALUE for a layout cuBLASLt will not take, such
  // as a broadcast operand's batch stride 0) is as good as no algorithm: cuBLAS computes it.
  std::optional<cublasLtMatmulAlgo_t> algo;
  if (status == CUBLAS_STATUS_SUCCESS && found > 0 && result.state == CUBLAS_STATUS_SUCCESS) {
    algo = result.algo;
  }
  if (cache.algos.size() >= kMaxCachedAlgos) cache.algos.clear();
  cache.algos.emplace(key, algo);
  return algo;
}

// Runs the call through cuBLASLt; false, having done nothing, where it has no algorithm (cuBLAS
// then computes it, as PyTorch falls back).
bool lt_matmul(const Problem& p, const Call& c) {
  const Shapes& s = p.shapes;
  const cudaDataType_t type = p.precision.type;
  cublasLtHandle_t handle = lt_handle(p.context, s);
  LtMatmul lt{};
  check_cublas(cublas_library().cublasLtMatmulDescInit_internal(&lt.desc, sizeof(lt.desc),
                                                                p.precision.compute, CUDA_R_32F),
               "cublasLtMatmulDescInit", s);
  const auto transa = static_cast<int32_t>(p.bt.op);
  const auto transb = static_cast<int32_t>(p.at.op);
  check_cublas(cublas_library().cublasLtMatmulDescSetAttribute(
                   &lt.desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof(transa)),
               "cublasLtMatmulDescSetAttribute", s);
  check_cublas(cublas_library().cublasLtMatmulDescSetAttribute(
                   &lt.desc, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof(transb)),
               "cublasLtMatmulDescSetAttribute", s);
  init_layout(lt.a_layout, type, p.bt.stored_rows, p.bt.stored_cols, p.bt.ld, c.count, c.b_stride,
              s);
  init_layout(lt.b_layout, type, p.at.stored_rows, p.at.stored_cols, p.at.ld, c.count, c.a_stride,
              s);
  init_layout(lt.out_layout, type, s.n, s.m, s.n, c.count, c.out_stride, s);
  const std::optional<cublasLtMatmulAlgo_t> algo = find_algo(p, handle, lt, c);
  if (!algo) return false;
  const float alpha = 1.0f, beta = 0.0f;  // scale type float, in host memory
  check_cublas(cublas_library().cublasLtMatmul(handle, &lt.desc, &alpha, c.b, &lt.a_layout, c.a,
                                               &lt.b_layout, &beta, c.out, &lt.out_layout, c.out,
                                               &lt.out_layout, &*algo, p.context.workspace,
                                               kWorkspaceBytes, p.context.stream),
               "cublasLtMatmul", s);
  return true;
}

}  // namespace

void gemm(ScalarType dtype, IntArrayRef batch_sizes, int64_t m, int64_t k, int64_t n,
          const MatrixOperand& a, const MatrixOperand& b, void* out, const Stream& stream) {
  const Precision precision = precision_for(dtype);
  ACCEL_CHECK(gemm_supports(m, k, a.row_stride, a.col_stride) &&
                  gemm_supports(k, n, b.row_stride, b.col_stride),
              "matmul",
              "operands must be row- or column-contiguous, got strides ({}, {}) and ({}, {})",
              a.row_stride, a.col_stride, b.row_stride, b.col_stride);
  const int64_t batch = product(batch_sizes);
  if (batch == 0 || m == 0 || n == 0) return;
  const int64_t element = element_size(dtype);
  const cudaStream_t cuda_stream = launch_stream(stream);
  if (k == 0) {
    // Empty sums: zeros, without asking cuBLAS about zero-sized matrices.
    ACCEL_CUDA_CHECK(
        cudaMemsetAsync(out, 0, static_cast<size_t>(batch * m * n * element), cuda_stream),
        "matmul");
    return;
  }
  const std::vector<BatchDim> dims = merged_batch_dims(batch_sizes, a, b, m * n);
  const Problem problem{{dtype, batch_sizes, m, k, n},
                        precision,
                        transposed_view(k, n, b),
                        transposed_view(m, k, a),
                        alignment(b.data, dims, &BatchDim::b, element),
                        alignment(a.data, dims, &BatchDim::a, element),
                        alignment(out, dims, &BatchDim::out, element),
                        context_for(stream.device().index, cuda_stream)};
  const bool use_lt = dtype != kFloat64;
  for_each_call(dims, a.data, b.data, out, element, [&](const Call& call) {
    if (!use_lt || !lt_matmul(problem, call)) blas_gemm(problem, call);
  });
}

void set_allow_tf32(bool allow) { tf32_allowed.store(allow, std::memory_order_relaxed); }

bool allow_tf32() { return tf32_allowed.load(std::memory_order_relaxed); }

}  // namespace accel::cuda
