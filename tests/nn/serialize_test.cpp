// Module::save / Module::load: round trips through safetensors, PyTorch's fixture loaded into
// the equivalent accel model (and written back for the reverse check, see
// tests/reference/generate_safetensors_fixture.py), and errors listing mismatched entries.
#include <gtest/gtest.h>

#include <cstdlib>

#include "accel/accel.h"
#include "accel/core/io/safetensors.h"
#include "io_test_util.h"

namespace accel {
namespace {

using testing_io::error_message;
using testing_io::ScratchDir;

const std::string kFixture = std::string(ACCEL_FIXTURE_DIR) + "/pytorch_mlp.safetensors";

// torch.nn.Sequential(Linear(4, 3), ReLU(), Linear(3, 2)).
nn::Sequential make_mlp() { return nn::Sequential(nn::Linear(4, 3), nn::ReLU(), nn::Linear(3, 2)); }

struct NetImpl : nn::Module {
  nn::Linear fc{nn::Linear(3, 2)};
  Tensor running;
  NetImpl() {
    register_module("fc", fc);
    running = register_buffer("running", zeros({2}, kFloat64));
  }
  Tensor forward(const Tensor& x) override { return fc->forward(x); }
};
ACCEL_MODULE(Net);

TEST(Serialize, SaveLoadRoundTrip) {
  ScratchDir dir;
  Net saved;
  saved->running.copy_(tensor({1.5, -2.0}));
  saved->save(dir.file("net.safetensors"));

  Net restored;
  restored->load(dir.file("net.safetensors"));
  auto expected = saved->state_dict();
  auto actual = restored->state_dict();
  ASSERT_EQ(actual.keys(), expected.keys());
  for (const auto& [name, t] : expected) {
    EXPECT_TRUE(equal(actual[name], t)) << name;
    EXPECT_EQ(actual[name].dtype(), t.dtype()) << name;
  }
  // Loading copies into the existing parameters: their identity (and requires_grad) stays.
  EXPECT_TRUE(restored->fc->weight.requires_grad());
  EXPECT_TRUE(equal(restored->fc->weight, saved->fc->weight));
}

TEST(Serialize, PytorchFixtureLoadsIntoEquivalentModel) {
  nn::Sequential model = make_mlp();
  model->load(kFixture);
  auto state = model->state_dict();
  EXPECT_EQ(state.keys(), (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  // Values printed by PyTorch from the seed-0 model.
  EXPECT_TRUE(equal(state["0.bias"], tensor({-0.477674246f, -0.331141055f, -0.20611155f})));
  EXPECT_TRUE(equal(state["2.weight"], tensor({0.0213871151f, 0.228246883f, 0.346423328f,
                                               -0.391409457f, -0.251414567f, 0.20970349f})
                                           .view({2, 3})));
  EXPECT_FLOAT_EQ(state["0.weight"][1][3].item<float>(), 0.396444738f);
  Tensor x = tensor({1.f, -2.f, 3.f, 0.5f, 0.25f, 0.5f, -1.f, 2.f}).view({2, 4});
  EXPECT_TRUE(allclose(
      model->forward(x),
      tensor({0.479424685f, -0.118818782f, 0.591391206f, -0.242150217f}).view({2, 2}), 1e-6, 1e-7));

  // Written back with Module::save, the file reloads identically; with
  // ACCEL_SAFETENSORS_EXPORT=<path> it is also kept for generate_safetensors_fixture.py --check.
  ScratchDir dir;
  const char* export_path = std::getenv("ACCEL_SAFETENSORS_EXPORT");
  const std::string path = export_path ? export_path : dir.file("accel_mlp.safetensors");
  model->save(path);
  io::SafetensorsContents again = io::load_safetensors(path);
  ASSERT_EQ(again.tensors.size(), 4u);
  for (const auto& [name, t] : again.tensors) EXPECT_TRUE(equal(t, state[name])) << name;
}

TEST(Serialize, MismatchedShapesAndNamesAreListed) {
  // Linear(4, 5) first: both entries of layer 0 and layer 2's weight have other shapes.
  nn::Sequential wrong_shapes(nn::Linear(4, 5), nn::ReLU(), nn::Linear(5, 2));
  std::string msg = error_message([&] { wrong_shapes->load(kFixture); });
  EXPECT_CONTAINS(msg, "Module::load");
  EXPECT_CONTAINS(msg, kFixture);
  EXPECT_CONTAINS(msg, "0.weight (expected [5, 4], got [3, 4])");
  EXPECT_CONTAINS(msg, "0.bias (expected [5], got [3])");
  EXPECT_CONTAINS(msg, "2.weight (expected [2, 5], got [2, 3])");

  nn::Sequential fewer(nn::Linear(4, 3));
  msg = error_message([&] { fewer->load(kFixture); });
  EXPECT_CONTAINS(msg, "unexpected keys [2.bias, 2.weight]");
  // Non-strict loading takes the matching entries and ignores the rest.
  fewer->load(kFixture, /*strict=*/false);
  EXPECT_EQ(fewer->state_dict()["0.bias"][0].item<float>(), -0.477674246f);

  Net net;
  msg = error_message([&] { net->load(kFixture); });
  EXPECT_CONTAINS(msg, "missing keys [running, fc.weight, fc.bias]");
}

TEST(Serialize, LoadingAMissingOrCorruptFileNamesIt) {
  ScratchDir dir;
  Net net;
  EXPECT_CONTAINS(error_message([&] { net->load(dir.file("absent.safetensors")); }),
                  "absent.safetensors");
  const std::string corrupt = dir.file("corrupt.safetensors");
  net->save(corrupt);
  std::filesystem::resize_file(corrupt, 20);
  std::string msg = error_message([&] { net->load(corrupt); });
  EXPECT_CONTAINS(msg, "load_safetensors");
  EXPECT_CONTAINS(msg, "corrupt.safetensors");
}

}  // namespace
}  // namespace accel
