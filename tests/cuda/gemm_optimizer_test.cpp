// CUDA matrix products and optimizer updates against the CPU through the public API: every float
// dtype, operands read in place (transposed, sliced, broadcast, permuted), gradients, TF32, ten
// optimizer steps, the loss scaler's found-inf flag. Each test skips itself without a GPU.
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "accel/accel.h"
#include "support/cuda_test.h"
#include "support/expect_error.h"
#include "support/tensor_compare.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::expect_matches_cpu;

constexpr Device kCuda(kCUDA);
constexpr ScalarType kFloatTypes[] = {kFloat32, kFloat64, kFloat16, kBFloat16};

// Standard-normal values drawn in float64 and rounded once to `dtype`, on the CPU.
Tensor normal_values(IntArrayRef sizes, ScalarType dtype, Generator& generator) {
  return randn(sizes, TensorOptions(kFloat64), &generator).to(dtype);
}

// How closely a product over an inner dimension k matches the CPU's: float32 and float64 to
// rounding (the CPU sums in another order), 16-bit floats to one rounding of the float32 sum.
// Entries of a product of standard-normal operands are about sqrt(k) in size: atol is 3 rtol of
// that (a float32 [256, 1024] x [1024, 192] product is off by up to 1.2e-4 from the exact one).
double product_atol(double rtol, int64_t k) {
  return 3 * rtol * std::sqrt(static_cast<double>(k + 1));
}

void expect_product_close(const Tensor& cuda_result, const Tensor& cpu_result, int64_t k) {
  const ScalarType dtype = cpu_result.dtype();
  const double rtol = dtype == kFloat64 ? 1e-12 : dtype == kFloat32 ? 1e-5 : 1e-2;
  expect_matches_cpu(cuda_result, cpu_result, {rtol, product_atol(rtol, k)},
                     fmt::format("{} product over k = {}", dtype, k));
}

// An operand on both devices: the same values, seen through the same view. The view is taken
// after the copy to the device (a copy of a view is contiguous), so the CUDA kernel reads the
// view's strides and offset.
struct Operand {
  Tensor cpu, cuda;
};

Operand on_both(
    const Tensor& base,
    const std::function<Tensor(const Tensor&)>& view = [](const Tensor& t) { return t; }) {
  return {view(base), view(base.to(kCuda))};
}

Tensor transposed(const Tensor& t) { return t.transpose(-2, -1); }

void expect_matmul_matches(const Operand& a, const Operand& b, int64_t k) {
  expect_product_close(matmul(a.cuda, b.cuda), matmul(a.cpu, b.cpu), k);
}

TEST(CudaGemm, MatchesCpuForEveryFloatDtype) {
  ACCEL_REQUIRE_CUDA();
  Generator gen(1);
  struct Shape {
    int64_t m, k, n;
  };
  for (ScalarType dtype : kFloatTypes) {
    for (Shape s : {Shape{1, 1, 1}, Shape{5, 7, 3}, Shape{37, 64, 45}, Shape{128, 256, 96}}) {
      SCOPED_TRACE(::testing::Message() << dtype << " " << s.m << "x" << s.k << "x" << s.n);
      const Tensor a = normal_values({s.m, s.k}, dtype, gen),
                   b = normal_values({s.k, s.n}, dtype, gen);
      expect_product_close(mm(a.to(kCuda), b.to(kCuda)), mm(a, b), s.k);
    }
  }
  for (ScalarType dtype : {kFloat32, kFloat64}) {
    expect_matmul_matches(on_both(normal_values({33, 1024}, dtype, gen)),
                          on_both(normal_values({1024, 17}, dtype, gen)), 1024);
  }
}

TEST(CudaGemm, VectorOperands) {
  ACCEL_REQUIRE_CUDA();
  Generator gen(2);
  const Operand v = on_both(normal_values({9}, kFloat32, gen));
  const Operand w = on_both(normal_values({9}, kFloat32, gen));
  const Operand m = on_both(normal_values({9, 4}, kFloat32, gen));
  const Operand n = on_both(normal_values({6, 9}, kFloat32, gen));
  expect_matmul_matches(v, m, 9);
  expect_matmul_matches(n, v, 9);
  expect_matmul_matches(v, w, 9);
}

TEST(CudaGemm, TransposedAndSlicedOperandsAreReadInPlace) {
  ACCEL_REQUIRE_CUDA();
  Generator gen(3);
  const int64_t m = 19, k = 33, n = 11;
  for (ScalarType dtype : kFloatTypes) {
    SCOPED_TRACE(::testing::Message() << dtype);
    const Operand a = on_both(normal_values({m, k}, dtype, gen));
    const Operand b = on_both(normal_values({k, n}, dtype, gen));
    const Operand at = on_both(normal_values({k, m}, dtype, gen), transposed);
    const Operand bt = on_both(normal_values({n, k}, dtype, gen), transposed);
    expect_matmul_matches(at, b, k);
    expect_matmul_matches(a, bt, k);
    expect_matmul_matches(at, bt, k);
    // Leading dimensions k + 3 and k + 5, data one element past an aligned address.
    const Operand a_sliced = on_both(normal_values({m, k + 3}, dtype, gen),
                                     [&](const Tensor& t) { return t.slice(1, 1, k + 1); });
    const Operand b_sliced = on_both(normal_values({n, k + 5}, dtype, gen),
                                     [&](const Tensor& t) { return t.slice(1, 1, k + 1).t(); });
    expect_matmul_matches(a_sliced, b, k);
    expect_matmul_matches(a_sliced, b_sliced, k);
  }
}

TEST(CudaGemm, BatchedAndBroadcastBatchDims) {
  ACCEL_REQUIRE_CUDA();
  Generator gen(4);
  const int64_t batch = 5, m = 6, k = 7, n = 8;
  for (ScalarType dtype : kFloatTypes) {
    SCOPED_TRACE(::testing::Message() << dtype);
    const Operand a = on_both(normal_values({batch, m, k}, dtype, gen));
    const Operand b = on_both(normal_values({batch, k, n}, dtype, gen));
    expect_product_close(bmm(a.cuda, b.cuda), bmm(a.cpu, b.cpu), k);
    // [B, m, k] x [k, n], [m, k] x [B, k, n] and [1, m, k] x [B, k, n]: one operand's batch
    // stride is 0.
    expect_matmul_matches(a, on_both(normal_values({k, n}, dtype, gen)), k);
    expect_matmul_matches(on_both(normal_values({m, k}, dtype, gen)), b, k);
    expect_matmul_matches(on_both(normal_values({1, m, k}, dtype, gen)), b, k);
    // [B, 1, m, k] x [1, C, k, n]: the batch dims do not merge into one stride.
    expect_matmul_matches(on_both(normal_values({batch, 1, m, k}, dtype, gen)),
                          on_both(normal_values({1, 3, k, n}, dtype, gen)), k);
    // A batch of transposed matrices.
    expect_matmul_matches(on_both(normal_values({batch, k, m}, dtype, gen), transposed), b, k);
  }
}

TEST(CudaGemm, NonUniformBatchLayout) {
  ACCEL_REQUIRE_CUDA();
  Generator gen(5);
  const int64_t m = 4, k = 9, n = 5;
  for (ScalarType dtype : kFloatTypes) {
    SCOPED_TRACE(::testing::Message() << dtype);
    // Batch strides (m * k, 2 * m * k) for sizes (2, 3): no single stride steps through them.
    const Operand a = on_both(normal_values({3, 2, m, k}, dtype, gen), [](const Tensor& t) {
      return t.permute({1, 0, 2, 3});
    });
    expect_matmul_matches(a, on_both(normal_values({2, 3, k, n}, dtype, gen)), k);
    expect_matmul_matches(a,
                          on_both(normal_values({3, 2, n, k}, dtype, gen),
                                  [](const Tensor& t) {
                                    return t.permute({1, 0, 3, 2});
                                  }),
                          k);
    // Every other batch entry: one stride of 2 * m * k.
    expect_matmul_matches(on_both(normal_values({6, m, k}, dtype, gen),
                                  [](const Tensor& t) { return t.slice(0, 0, 6, 2); }),
                          on_both(normal_values({3, k, n}, dtype, gen)), k);
  }
}

TEST(CudaGemm, EmptyShapes) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : kFloatTypes) {
    const TensorOptions options = TensorOptions(dtype).device(kCuda);
    // An empty inner dimension sums nothing: zeros (the output memory starts uninitialized).
    const Tensor out = bmm(empty({4, 3, 0}, options), empty({4, 0, 5}, options));
    EXPECT_TRUE(out.cpu().equal(zeros({4, 3, 5}, dtype))) << dtype;
    EXPECT_TRUE(
        mm(empty({3, 0}, options), empty({0, 2}, options)).cpu().equal(zeros({3, 2}, dtype)));
    EXPECT_EQ(mm(empty({0, 4}, options), empty({4, 2}, options)).sizes(), IntArrayRef({0, 2}));
    EXPECT_EQ(mm(empty({3, 4}, options), empty({4, 0}, options)).sizes(), IntArrayRef({3, 0}));
    EXPECT_EQ(bmm(empty({0, 3, 4}, options), empty({0, 4, 2}, options)).sizes(),
              IntArrayRef({0, 3, 2}));
  }
}

TEST(CudaGemm, GradientsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  Generator gen(6);
  for (ScalarType dtype : {kFloat32, kFloat64}) {
    SCOPED_TRACE(::testing::Message() << dtype);
    const Tensor a = normal_values({3, 5, 6}, dtype, gen), b = normal_values({6, 4}, dtype, gen);
    const Tensor c = normal_values({3, 4, 2}, dtype, gen),
                 weight = normal_values({3, 5, 2}, dtype, gen);
    // loss = sum(weight * ((a · b) · c)): batch folding, a broadcast and a batched product.
    auto gradients = [&](Device device) {
      // Copies even on the CPU, so that the shared inputs never require gradients.
      Tensor ad = a.to(device, false, true).requires_grad_();
      Tensor bd = b.to(device, false, true).requires_grad_();
      Tensor cd = c.to(device, false, true).requires_grad_();
      (matmul(matmul(ad, bd), cd) * weight.to(device)).sum().backward();
      return std::vector<Tensor>{ad.grad(), bd.grad(), cd.grad()};
    };
    const std::vector<Tensor> on_cuda = gradients(kCuda), on_cpu = gradients(Device(kCPU));
    for (size_t i = 0; i < on_cpu.size(); ++i) expect_product_close(on_cuda[i], on_cpu[i], 24);
  }
}

TEST(CudaGemm, LinearAndItsGradientsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  Generator gen(7);
  const Tensor x = normal_values({8, 3, 20}, kFloat32, gen),
               w = normal_values({12, 20}, kFloat32, gen);
  const Tensor bias = normal_values({12}, kFloat32, gen);
  auto run = [&](Device device) {
    Tensor xd = x.to(device, false, true).requires_grad_();
    Tensor wd = w.to(device, false, true).requires_grad_();
    Tensor bd = bias.to(device, false, true).requires_grad_();
    const Tensor y = F::linear(xd, wd, bd);
    y.pow(2).sum().backward();
    return std::vector<Tensor>{y.detach(), xd.grad(), wd.grad(), bd.grad()};
  };
  const std::vector<Tensor> on_cuda = run(kCuda), on_cpu = run(Device(kCPU));
  const char* names[] = {"output", "input gradient", "weight gradient", "bias gradient"};
  for (size_t i = 0; i < on_cpu.size(); ++i) {
    expect_matches_cpu(on_cuda[i], on_cpu[i], {1e-5, 1e-3}, names[i]);
  }
}

TEST(CudaGemm, IntegerMatmulIsAnError) {
  ACCEL_REQUIRE_CUDA();
  const Tensor a = arange(6, kInt64).reshape({2, 3}).to(kCuda);
  const Tensor b = arange(6, kInt64).reshape({3, 2}).to(kCuda);
  expect_error_containing([&] { matmul(a, b); }, "matmul: not implemented for dtype int64");
  expect_error_containing([&] { mm(a.to(kInt32), b.to(kInt32)); }, "int32");
}

// Restores the TF32 setting a test changes.
class AllowTf32Guard {
 public:
  AllowTf32Guard() : previous_(cuda::allow_tf32()) {}
  ~AllowTf32Guard() { cuda::set_allow_tf32(previous_); }

 private:
  bool previous_;
};

TEST(CudaGemm, Tf32TradesPrecisionOnlyWhileAllowed) {
  ACCEL_REQUIRE_CUDA();
  AllowTf32Guard guard;
  Generator gen(8);
  const int64_t k = 1024;
  const Tensor a = normal_values({256, k}, kFloat32, gen),
               b = normal_values({k, 192}, kFloat32, gen);
  const Tensor exact = matmul(a.to(kFloat64), b.to(kFloat64)).to(kFloat32);
  EXPECT_FALSE(cuda::allow_tf32());
  const Tensor ad = a.to(kCuda), bd = b.to(kCuda);
  expect_matches_cpu(matmul(ad, bd), exact, {1e-5, product_atol(1e-5, k)}, "before TF32");
  cuda::set_allow_tf32(true);
  EXPECT_TRUE(cuda::allow_tf32());
  // TF32 keeps 10 mantissa bits of each input: each term is off by about 1e-3.
  const Tensor with_tf32 = matmul(ad, bd);
  expect_matches_cpu(with_tf32, exact, {1e-2, product_atol(1e-2, k)}, "with TF32");
  cuda::set_allow_tf32(false);
  const Tensor without_tf32 = matmul(ad, bd);
  expect_matches_cpu(without_tf32, exact, {1e-5, product_atol(1e-5, k)}, "after TF32");
  // Products of 1024 terms rounded to 10 mantissa bits cannot all come out as in float32: the
  // flag must have reached the library.
  EXPECT_FALSE(with_tf32.equal(without_tf32)) << "TF32 allowed, yet the products are float32's";
}

// ---- optimizers: ten steps on CUDA equal ten steps on the CPU ----

using MakeOptimizer = std::function<std::unique_ptr<optim::Optimizer>(std::vector<Tensor>)>;

// Runs ten updates with the same random gradients on CPU parameters and on CUDA copies (one of
// them a view one element into its storage, so its packets are misaligned); the parameters and
// every state tensor must then agree to `rtol` (also taken as the absolute tolerance: values are
// of order 1).
void expect_same_steps(ScalarType dtype, const MakeOptimizer& make, double rtol) {
  constexpr int kSteps = 10;
  Generator gen(11);
  std::vector<Tensor> cpu_params, cuda_params;
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{7}, {33, 5}, {1000}}) {
    const Tensor init = normal_values(shape, dtype, gen);
    cpu_params.push_back(init.clone().requires_grad_());
    cuda_params.push_back(init.to(kCuda).requires_grad_());
  }
  const Tensor padded = normal_values({4100}, dtype, gen);
  cpu_params.push_back(padded.slice(0, 1).clone().requires_grad_());
  cuda_params.push_back(padded.to(kCuda).slice(0, 1).requires_grad_());
  ASSERT_TRUE(cuda_params.back().is_contiguous());
  const std::unique_ptr<optim::Optimizer> cpu_opt = make(cpu_params);
  const std::unique_ptr<optim::Optimizer> cuda_opt = make(cuda_params);
  for (int step = 0; step < kSteps; ++step) {
    for (size_t i = 0; i < cpu_params.size(); ++i) {
      const Tensor grad = normal_values(cpu_params[i].sizes(), dtype, gen);
      cpu_params[i].set_grad(grad);
      cuda_params[i].set_grad(grad.to(kCuda));
    }
    cpu_opt->step();
    cuda_opt->step();
  }
  for (size_t i = 0; i < cpu_params.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "parameter " << i);
    expect_matches_cpu(cuda_params[i], cpu_params[i], {rtol, rtol}, "values");
    const optim::ParamState& cpu_state = cpu_opt->state(cpu_params[i]);
    const optim::ParamState& cuda_state = cuda_opt->state(cuda_params[i]);
    ASSERT_EQ(cpu_state.size(), cuda_state.size());
    for (const auto& [key, value] : cpu_state) {
      SCOPED_TRACE(key);
      ASSERT_EQ(cuda_state.count(key), 1u);
      const Tensor& on_cuda = cuda_state.at(key);
      if (on_cuda.is_cuda()) {
        expect_matches_cpu(on_cuda, value, {rtol, rtol}, key);
      } else {
        EXPECT_TRUE(on_cuda.equal(value));  // the step count
      }
    }
  }
}

void expect_same_steps_in_float32_and_float64(const MakeOptimizer& make) {
  {
    SCOPED_TRACE("float32");
    expect_same_steps(kFloat32, make, 1e-6);
  }
  {
    SCOPED_TRACE("float64");
    expect_same_steps(kFloat64, make, 1e-12);
  }
}

template <typename OptimizerType, typename Options>
MakeOptimizer optimizer_with(Options options) {
  return [options](std::vector<Tensor> params) -> std::unique_ptr<optim::Optimizer> {
    return std::make_unique<OptimizerType>(std::move(params), options);
  };
}

TEST(CudaOptimizer, Sgd) {
  ACCEL_REQUIRE_CUDA();
  using optim::SGD, optim::SGDOptions;
  expect_same_steps_in_float32_and_float64(optimizer_with<SGD>(SGDOptions(0.1)));
  expect_same_steps_in_float32_and_float64(
      optimizer_with<SGD>(SGDOptions(0.1).momentum(0.9).dampening(0.1).weight_decay(0.01)));
  expect_same_steps_in_float32_and_float64(
      optimizer_with<SGD>(SGDOptions(0.05).momentum(0.9).nesterov(true).weight_decay(0.01)));
  expect_same_steps_in_float32_and_float64(
      optimizer_with<SGD>(SGDOptions(0.05).momentum(0.5).maximize(true)));
}

TEST(CudaOptimizer, Adam) {
  ACCEL_REQUIRE_CUDA();
  using optim::Adam, optim::AdamOptions;
  expect_same_steps_in_float32_and_float64(optimizer_with<Adam>(AdamOptions(1e-2)));
  expect_same_steps_in_float32_and_float64(
      optimizer_with<Adam>(AdamOptions(1e-2).weight_decay(0.1).amsgrad(true)));
}

TEST(CudaOptimizer, AdamW) {
  ACCEL_REQUIRE_CUDA();
  using optim::AdamW, optim::AdamWOptions;
  expect_same_steps_in_float32_and_float64(optimizer_with<AdamW>(AdamWOptions(1e-2)));
  expect_same_steps_in_float32_and_float64(
      optimizer_with<AdamW>(AdamWOptions(1e-2).weight_decay(0.1).amsgrad(true)));
}

TEST(CudaOptimizer, Rmsprop) {
  ACCEL_REQUIRE_CUDA();
  using optim::RMSprop, optim::RMSpropOptions;
  expect_same_steps_in_float32_and_float64(optimizer_with<RMSprop>(RMSpropOptions(1e-2)));
  expect_same_steps_in_float32_and_float64(optimizer_with<RMSprop>(
      RMSpropOptions(1e-2).centered(true).momentum(0.9).weight_decay(0.01)));
}

TEST(CudaOptimizer, Adagrad) {
  ACCEL_REQUIRE_CUDA();
  using optim::Adagrad, optim::AdagradOptions;
  expect_same_steps_in_float32_and_float64(optimizer_with<Adagrad>(
      AdagradOptions(0.1).lr_decay(0.01).weight_decay(0.1).initial_accumulator_value(0.1)));
}

// The optimizers written as tensor ops run on CUDA through the ops' kernels.
TEST(CudaOptimizer, Adamax) {
  ACCEL_REQUIRE_CUDA();
  using optim::Adamax, optim::AdamaxOptions;
  expect_same_steps_in_float32_and_float64(
      optimizer_with<Adamax>(AdamaxOptions(1e-2).weight_decay(0.1).maximize(true)));
}

TEST(CudaOptimizer, NAdam) {
  ACCEL_REQUIRE_CUDA();
  using optim::NAdam, optim::NAdamOptions;
  expect_same_steps_in_float32_and_float64(optimizer_with<NAdam>(NAdamOptions(1e-2)));
  expect_same_steps_in_float32_and_float64(
      optimizer_with<NAdam>(NAdamOptions(1e-2).weight_decay(0.1).decoupled_weight_decay(true)));
}

TEST(CudaOptimizer, RAdam) {
  ACCEL_REQUIRE_CUDA();
  using optim::RAdam, optim::RAdamOptions;
  // beta2 = 0.9 crosses the rectification switch (rho_t > 5) at step 6 of 10.
  expect_same_steps_in_float32_and_float64(
      optimizer_with<RAdam>(RAdamOptions(1e-2).betas({0.9, 0.9}).weight_decay(0.1)));
}

TEST(CudaOptimizer, Adadelta) {
  ACCEL_REQUIRE_CUDA();
  using optim::Adadelta, optim::AdadeltaOptions;
  expect_same_steps_in_float32_and_float64(
      optimizer_with<Adadelta>(AdadeltaOptions(0.5).rho(0.8).weight_decay(0.1)));
}

TEST(CudaOptimizer, Rprop) {
  ACCEL_REQUIRE_CUDA();
  using optim::Rprop, optim::RpropOptions;
  expect_same_steps_in_float32_and_float64(
      optimizer_with<Rprop>(RpropOptions(1e-2).etas({0.4, 1.3}).maximize(true)));
}

TEST(CudaOptimizer, ASGD) {
  ACCEL_REQUIRE_CUDA();
  using optim::ASGD, optim::ASGDOptions;
  expect_same_steps_in_float32_and_float64(
      optimizer_with<ASGD>(ASGDOptions(1e-2).lambd(0.01).t0(3).weight_decay(0.1)));
}

// LBFGS keeps its flat vectors on the parameters' device; its steps (line search included)
// match the CPU's.
TEST(CudaOptimizer, LBFGS) {
  ACCEL_REQUIRE_CUDA();
  const auto minimize_on = [](bool cuda) {
    Tensor x = tensor({-1.2, 1.0, 0.5, -0.3});
    if (cuda) x = x.to(kCuda);
    x.requires_grad_();
    optim::LBFGS opt({x}, optim::LBFGSOptions().max_iter(10).line_search_fn("strong_wolfe"));
    const auto rosenbrock = [&] {
      opt.zero_grad();
      const Tensor a = x.narrow(0, 0, 3);
      const Tensor r = x.narrow(0, 1, 3) - a * a;
      Tensor loss = (100 * r * r + (1 - a) * (1 - a)).sum();
      loss.backward();
      return loss;
    };
    for (int step = 0; step < 3; ++step) opt.step(rosenbrock);
    EXPECT_EQ(opt.state(x).at("d").is_cuda(), cuda);
    return x.detach();
  };
  expect_matches_cpu(minimize_on(true), minimize_on(false), {1e-9, 1e-9}, "LBFGS parameters");
}

// ---- loss scaling ----

TEST(CudaLossScaling, UnscaleDividesAndFlagsNonFiniteGradients) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : kFloatTypes) {
    SCOPED_TRACE(::testing::Message() << dtype);
    Generator gen(12);
    // 1001 elements: whole 16-byte packets and a tail.
    const Tensor values = normal_values({1001}, dtype, gen);
    Tensor p = zeros({1001}, TensorOptions(dtype).device(kCuda)).requires_grad_();
    optim::SGD sgd({p}, optim::SGDOptions(0.1));
    GradScaler scaler(GradScalerOptions{.init_scale = 1024.0});

    p.set_grad((values * 1024.0).to(kCuda));
    scaler.unscale_(sgd);
    EXPECT_FALSE(scaler.found_inf());
    expect_matches_cpu(p.grad(), values, {.rtol = 1e-6}, "unscaled gradient");
    scaler.update();

    Tensor with_inf = values.clone();
    with_inf.narrow(0, 1000, 1).fill_(INFINITY);  // in the tail
    p.set_grad(with_inf.to(kCuda));
    scaler.unscale_(sgd);
    EXPECT_TRUE(scaler.found_inf());
    scaler.update();

    Tensor with_nan = values.clone();
    with_nan.narrow(0, 3, 1).fill_(NAN);  // in the first packet
    p.set_grad(with_nan.to(kCuda));
    EXPECT_FALSE(scaler.step(sgd));  // skipped: a NaN gradient
    EXPECT_TRUE(p.detach().cpu().equal(zeros({1001}, dtype)));
    scaler.update();
    EXPECT_EQ(scaler.get_scale(), 256.0);  // backed off twice
  }
}

}  // namespace
}  // namespace accel
