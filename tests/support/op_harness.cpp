// Fixture loading and the four checks of the op-test harness.
#include "support/op_harness.h"

#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "support/cuda_test.h"
#include "support/tensor_compare.h"

namespace accel::testing {

namespace {

using nlohmann::json;

const json& load_fixture(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, json> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  const std::string path = std::string(ACCEL_FIXTURE_DIR) + "/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  return cache.emplace(name, json::parse(in)).first->second;
}

const json& case_entry(const OpCase& c, const std::string& fixture) {
  const json& all = load_fixture(fixture);
  if (!all.contains(c.name)) throw std::runtime_error("fixture " + fixture + " lacks " + c.name);
  return all.at(c.name);
}

ScalarType dtype_from_name(const std::string& name) {
  for (ScalarType t : {kFloat32, kFloat64, kFloat16, kBFloat16, kInt64, kInt32, kUInt8, kBool}) {
    if (to_string(t) == name) return t;
  }
  throw std::runtime_error("unknown dtype " + name);
}

Tensor decode(const json& j) {
  const std::vector<int64_t> shape = j.at("shape").get<std::vector<int64_t>>();
  const ScalarType dtype = dtype_from_name(j.at("dtype").get<std::string>());
  const json& data = j.at("data");
  Tensor out = empty(shape, kFloat64);
  double* p = out.data_ptr<double>();
  for (size_t i = 0; i < data.size(); ++i) {
    // NaN and infinities come as the strings "nan", "inf" and "-inf" (JSON has no such numbers).
    p[i] = data[i].is_string() ? std::stod(data[i].get<std::string>()) : data[i].get<double>();
  }
  return out.to(dtype);
}

std::vector<Tensor> decode_inputs(const json& entry) {
  std::vector<Tensor> inputs;
  for (const json& j : entry.at("inputs")) inputs.push_back(decode(j));
  return inputs;
}

bool has_grads(const json& entry) { return entry.contains("grads"); }

std::vector<Tensor> as_leaves(const std::vector<Tensor>& inputs, const json& entry) {
  std::vector<Tensor> leaves;
  const json& grads = entry.at("grads");
  for (size_t i = 0; i < inputs.size(); ++i) {
    Tensor t = inputs[i].clone();
    if (!grads[i].is_null()) t.requires_grad_(true);
    leaves.push_back(t);
  }
  return leaves;
}

}  // namespace

void check_forward(const OpCase& c, const std::string& fixture) {
  const json& entry = case_entry(c, fixture);
  const Tensor out = c.fn(decode_inputs(entry));
  expect_tensors_close(out, decode(entry.at("output")), {.rtol = 1e-10, .atol = 1e-12},
                       c.name + " forward (float64)");
}

void check_backward(const OpCase& c, const std::string& fixture) {
  const json& entry = case_entry(c, fixture);
  if (!has_grads(entry)) GTEST_SKIP() << "not differentiable";
  std::vector<Tensor> leaves = as_leaves(decode_inputs(entry), entry);
  const Tensor out = c.fn(leaves);
  out.backward(decode(entry.at("grad_output")));
  const json& grads = entry.at("grads");
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (grads[i].is_null()) continue;
    expect_tensors_close(leaves[i].grad(), decode(grads[i]), {.rtol = 1e-10, .atol = 1e-12},
                         c.name + " gradient of input " + std::to_string(i));
  }
}

void check_finite_differences(const OpCase& c, const std::string& fixture) {
  const json& entry = case_entry(c, fixture);
  if (!has_grads(entry)) GTEST_SKIP() << "not differentiable";
  const std::vector<Tensor> inputs = decode_inputs(entry);
  const Tensor grad_output = decode(entry.at("grad_output"));
  std::vector<Tensor> leaves = as_leaves(inputs, entry);
  c.fn(leaves).backward(grad_output);

  // f(x) = sum(op(x) * grad_output): its derivative is exactly what backward computed.
  auto objective = [&](const std::vector<Tensor>& xs) {
    NoGradGuard no_grad;
    return (c.fn(xs) * grad_output).sum().item<double>();
  };
  constexpr double eps = 1e-6;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!leaves[i].requires_grad()) continue;
    std::vector<Tensor> xs;
    for (const Tensor& t : inputs) xs.push_back(t.clone());
    Tensor numeric = zeros_like(xs[i]);
    double* x = xs[i].data_ptr<double>();
    for (int64_t j = 0; j < xs[i].numel(); ++j) {
      const double saved = x[j];
      x[j] = saved + eps;
      const double up = objective(xs);
      x[j] = saved - eps;
      const double down = objective(xs);
      x[j] = saved;
      numeric.data_ptr<double>()[j] = (up - down) / (2 * eps);
    }
    expect_tensors_close(leaves[i].grad(), numeric, {.rtol = 1e-5, .atol = 1e-6},
                         c.name + " finite-difference gradient of input " + std::to_string(i));
  }
}

void check_low_precision(const OpCase& c, const std::string& fixture) {
  const json& entry = case_entry(c, fixture);
  const Tensor expected = decode(entry.at("output"));
  for (ScalarType dtype : c.low_precision) {
    std::vector<Tensor> inputs = decode_inputs(entry);
    for (Tensor& t : inputs) {
      if (t.is_floating_point()) t = t.to(dtype);
    }
    const Tensor out = c.fn(inputs);
    if (expected.is_floating_point()) {
      EXPECT_EQ(out.dtype(), dtype) << c.name << ": result dtype";
    }
    const double tol = dtype == kFloat32 ? 1e-5 : dtype == kFloat16 ? 4e-3 : 3e-2;
    // Reduced-precision inputs are themselves rounded: compare with a relative tolerance
    // plus an absolute one scaled to the output's magnitude.
    const double scale = std::max(
        1.0, expected.numel() == 0 ? 1.0 : expected.to(kFloat64).abs().amax().item<double>());
    expect_tensors_close(out, expected, {.rtol = tol, .atol = tol * scale},
                         c.name + " forward (" + std::string(to_string(dtype)) + ")");
  }
}

void check_cuda_matches_cpu(const OpCase& c, const std::string& fixture) {
  ACCEL_REQUIRE_CUDA();
  const json& entry = case_entry(c, fixture);
  const Device gpu(kCUDA, 0);
  std::vector<ScalarType> dtypes = {kFloat64, kFloat32};
  for (ScalarType t : c.low_precision) {
    if (t != kFloat32) dtypes.push_back(t);
  }
  for (ScalarType dtype : dtypes) {
    const std::string where = c.name + " on CUDA (" + std::string(to_string(dtype)) + ")";
    // Tolerances against the CPU kernels: float64 and float32 differ only by summation order
    // in reductions and products; 16-bit results may differ by a rounding step.
    const double tol = dtype == kFloat64 ? 1e-10 : dtype == kFloat32 ? 1e-5 : 1e-2;
    std::vector<Tensor> cpu_inputs = decode_inputs(entry);
    for (Tensor& t : cpu_inputs) {
      if (t.is_floating_point()) t = t.to(dtype);
    }
    std::vector<Tensor> cpu_leaves, gpu_leaves;
    for (size_t i = 0; i < cpu_inputs.size(); ++i) {
      const bool grad = has_grads(entry) && !entry.at("grads")[i].is_null();
      cpu_leaves.push_back(cpu_inputs[i].clone().requires_grad_(grad));
      gpu_leaves.push_back(cpu_inputs[i].to(gpu).requires_grad_(grad));
    }
    const Tensor cpu_out = c.fn(cpu_leaves);
    const Tensor gpu_out = c.fn(gpu_leaves);
    ASSERT_TRUE(gpu_out.is_cuda()) << where << ": the result left the device";
    EXPECT_EQ(gpu_out.dtype(), cpu_out.dtype()) << where << ": result dtype";
    const double scale = std::max(
        1.0,
        cpu_out.numel() == 0 ? 1.0 : cpu_out.detach().to(kFloat64).abs().amax().item<double>());
    expect_tensors_close(gpu_out.detach().cpu(), cpu_out.detach(),
                         {.rtol = tol, .atol = tol * scale}, where + " forward");
    if (!has_grads(entry) || !cpu_out.requires_grad()) continue;
    const Tensor grad_output = decode(entry.at("grad_output")).to(cpu_out.dtype());
    cpu_out.backward(grad_output);
    gpu_out.backward(grad_output.to(gpu));
    for (size_t i = 0; i < cpu_leaves.size(); ++i) {
      if (!cpu_leaves[i].requires_grad()) continue;
      ASSERT_TRUE(gpu_leaves[i].grad().defined()) << where << ": no gradient for input " << i;
      EXPECT_TRUE(gpu_leaves[i].grad().is_cuda()) << where << ": gradient left the device";
      const Tensor expected = cpu_leaves[i].grad();
      const double grad_scale = std::max(
          1.0, expected.numel() == 0 ? 1.0 : expected.to(kFloat64).abs().amax().item<double>());
      expect_tensors_close(gpu_leaves[i].grad().cpu(), expected,
                           {.rtol = tol, .atol = tol * grad_scale},
                           where + " gradient of input " + std::to_string(i));
    }
  }
}

void check_table_covers_fixture(const std::vector<OpCase>& cases, const std::string& fixture) {
  const json& all = load_fixture(fixture);
  std::set<std::string> in_table;
  for (const OpCase& c : cases) in_table.insert(c.name);
  for (const auto& [name, entry] : all.items()) {
    EXPECT_TRUE(in_table.count(name)) << fixture << " has case " << name << " with no test row";
  }
  for (const std::string& name : in_table) {
    EXPECT_TRUE(all.contains(name)) << "test row " << name << " has no fixture in " << fixture;
  }
}

}  // namespace accel::testing
