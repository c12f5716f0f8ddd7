// Normalization tests: batch_norm (train and eval), layer_norm and group_norm against PyTorch
// fixtures (tests/reference/cases_nn_norm.py) through the functional forms and the layers;
// BatchNorm running statistics after three training steps (momentum and cumulative average)
// and eval afterwards; PyTorch's parameter/buffer names and initialization; input errors.
#include "accel/nn/modules/normalization.h"

#include "accel/nn/functional/normalization.h"
#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;

// F::batch_norm with the fixture's running statistics (copied: training updates them).
Tensor batch_norm_with(const V& x, bool training) {
  const Tensor w = x.size() > 3 ? x[3] : Tensor(), b = x.size() > 4 ? x[4] : Tensor();
  return F::batch_norm(x[0], x[1].clone(), x[2].clone(), w, b, training, 0.1, 1e-5);
}

// A BatchNorm layer trained on x's batches; returns running_mean and running_var concatenated.
template <typename Layer>
Tensor running_stats(const V& x, std::optional<double> momentum) {
  Layer bn(nn::BatchNormOptions(x[0].size(1)).momentum(momentum));
  bn->to(x[0].dtype());
  for (const Tensor& batch : x) bn->forward(batch);
  EXPECT_EQ(bn->num_batches_tracked.template item<int64_t>(), static_cast<int64_t>(x.size()));
  return cat({bn->running_mean, bn->running_var});
}

const std::vector<OpCase> kNormCases = {
    {"batch_norm_train_2d", [](const V& x) { return batch_norm_with(x, true); }},
    {"batch_norm_train_1d", [](const V& x) { return batch_norm_with(x, true); }},
    {"batch_norm_train_1d_seq", [](const V& x) { return batch_norm_with(x, true); }},
    {"batch_norm_train_no_affine", [](const V& x) { return batch_norm_with(x, true); }},
    {"batch_norm_eval_2d", [](const V& x) { return batch_norm_with(x, false); }},
    {"batch_norm_eval_1d", [](const V& x) { return batch_norm_with(x, false); }},
    {"layer_norm",
     [](const V& x) {
       nn::LayerNorm ln(std::vector<int64_t>{4});
       ln->weight = x[1];
       ln->bias = x[2];
       return ln->forward(x[0]);
     }},
    {"layer_norm_two_dims",
     [](const V& x) {
       return F::layer_norm(x[0], {3, 4}, x[1], x[2]);
     }},
    {"layer_norm_no_affine",
     [](const V& x) {
       return nn::LayerNorm(nn::LayerNormOptions({5}).eps(1e-3).elementwise_affine(false))
           ->forward(x[0]);
     }},
    {"group_norm",
     [](const V& x) {
       nn::GroupNorm gn(3, 6);
       gn->weight = x[1];
       gn->bias = x[2];
       return gn->forward(x[0]);
     }},
    {"group_norm_one_group", [](const V& x) { return F::group_norm(x[0], 1, x[1], x[2]); }},
    {"group_norm_per_channel",
     [](const V& x) {
       return nn::GroupNorm(nn::GroupNormOptions(4, 4).affine(false))->forward(x[0]);
     }},
    {"batchnorm2d_running_stats",
     [](const V& x) { return running_stats<nn::BatchNorm2d>(x, 0.1); },
     {kFloat32}},
    {"batchnorm2d_running_stats_cumulative",
     [](const V& x) { return running_stats<nn::BatchNorm2d>(x, std::nullopt); },
     {kFloat32}},
    {"batchnorm1d_running_stats",
     [](const V& x) { return running_stats<nn::BatchNorm1d>(x, 0.3); },
     {kFloat32}},
    {"batchnorm2d_eval_after_training",
     [](const V& x) {
       nn::BatchNorm2d bn(x[0].size(1));
       bn->to(x[0].dtype());
       for (int i = 0; i < 3; ++i) bn->forward(x[static_cast<size_t>(i)]);
       bn->eval();
       return bn->forward(x[3]);
     },
     {kFloat32}},
    {"batch_norm_train_3d",
     [](const V& x) {
       nn::BatchNorm3d bn(3);
       bn->to(x[0].dtype());
       bn->weight = x[3];
       bn->bias = x[4];
       return bn->forward(x[0]);
     }},
    {"instance_norm_1d",
     [](const V& x) {
       nn::InstanceNorm1d norm(nn::InstanceNormOptions(3).affine(true));
       norm->weight = x[1];
       norm->bias = x[2];
       return norm->forward(x[0]);
     }},
    {"instance_norm_2d_no_affine", [](const V& x) { return nn::InstanceNorm2d(3)->forward(x[0]); }},
    {"instance_norm_eval",
     [](const V& x) {
       return F::instance_norm(x[0], x[1].detach(), x[2].detach(), x[3], x[4],
                               /*use_input_stats=*/false);
     }},
    {"instance_norm_running_stats",
     [](const V& x) {
       nn::InstanceNorm2d norm(
           nn::InstanceNormOptions(x[0].size(1)).momentum(0.2).track_running_stats(true));
       norm->to(x[0].dtype());
       for (const Tensor& batch : x) norm->forward(batch);
       // PyTorch counts no batches for InstanceNorm.
       EXPECT_EQ(norm->num_batches_tracked.item<int64_t>(), 0);
       return cat({norm->running_mean, norm->running_var});
     },
     {kFloat32}},
    {"rms_norm",
     [](const V& x) {
       nn::RMSNorm norm(std::vector<int64_t>{4});
       norm->weight = x[1];
       return norm->forward(x[0]);
     }},
    {"rms_norm_two_dims",
     [](const V& x) {
       return F::rms_norm(x[0], {2, 3}, {}, 1e-3);
     }},
    {"local_response_norm", [](const V& x) { return nn::LocalResponseNorm(3)->forward(x[0]); }},
    {"local_response_norm_4d",
     [](const V& x) {
       return nn::LocalResponseNorm(nn::LocalResponseNormOptions(4).alpha(0.5).beta(0.6).k(2.0))
           ->forward(x[0]);
     }},
};

ACCEL_OP_TEST_SUITE(NnNorm, "ops_nn_norm.json", kNormCases);

using testing::expect_error_containing;

TEST(BatchNorm, StateDictNamesAndInitializationMatchPyTorch) {
  nn::BatchNorm2d bn(3);
  EXPECT_EQ(bn->state_dict().keys(),
            (std::vector<std::string>{"weight", "bias", "running_mean", "running_var",
                                      "num_batches_tracked"}));
  EXPECT_TRUE(equal(bn->weight, ones({3})));
  EXPECT_TRUE(equal(bn->bias, zeros({3})));
  EXPECT_TRUE(equal(bn->running_mean, zeros({3})));
  EXPECT_TRUE(equal(bn->running_var, ones({3})));
  EXPECT_EQ(bn->num_batches_tracked.dtype(), kInt64);
  EXPECT_EQ(bn->num_batches_tracked.dim(), 0);
  EXPECT_EQ(bn->parameters().size(), 2u);
  EXPECT_EQ(bn->buffers().size(), 3u);
}

TEST(BatchNorm, WithoutTrackingUsesBatchStatisticsInEval) {
  nn::BatchNorm1d bn(nn::BatchNormOptions(2).track_running_stats(false).affine(false));
  EXPECT_TRUE(bn->state_dict().empty());
  const Tensor x = arange(8.0, kFloat64).reshape({4, 2});
  bn->eval();
  const Tensor y = bn->forward(x);
  EXPECT_TRUE(allclose(y.mean({0}), zeros({2}, kFloat64), 0, 1e-12));
}

TEST(BatchNorm, LowPrecisionInputKeepsItsDtype) {
  // float32 parameters and statistics, bfloat16 activations: the output stays bfloat16.
  nn::BatchNorm2d bn(2);
  EXPECT_EQ(bn->forward(randn({3, 2, 2, 2}).to(kBFloat16)).dtype(), kBFloat16);
  EXPECT_EQ(bn->running_mean.dtype(), kFloat32);
  EXPECT_EQ(nn::LayerNorm(std::vector<int64_t>{2})->forward(ones({2, 2}, kBFloat16)).dtype(),
            kBFloat16);
}

// 16-bit activations (autocast) in SyncBatchNorm: the statistics are summed in float32, so a
// count that bfloat16 cannot hold (29,008 per channel) stays exact and float16 sums of 870,000
// do not overflow. One process: the cross-process sum is the identity.
TEST(SyncBatchNorm, SixteenBitInputsKeepExactCountsAndFiniteSums) {
  Generator generator(8);
  const Tensor input = randn({37, 2, 28, 28}, kFloat32, &generator).add(30.0);
  const auto alone = [](const Tensor& t) { return t; };
  for (ScalarType dtype : {kBFloat16, kFloat16}) {
    const Tensor x = input.to(dtype);
    Tensor running_mean = zeros({2}), running_var = ones({2});
    const Tensor synced =
        F::sync_batch_norm(x, running_mean, running_var, {}, {}, 0.1, 1e-5, alone);
    const Tensor reference =
        F::batch_norm(x.to(kFloat32), zeros({2}), ones({2}), {}, {}, true, 0.1, 1e-5);
    EXPECT_EQ(synced.dtype(), dtype);
    // One rounding of the float32 result to the 16-bit type (values within about 4 sigma).
    const double step = dtype == kBFloat16 ? 1.0 / 128 : 1.0 / 1024;
    EXPECT_LE((synced.to(kFloat32) - reference).abs().max().item<double>(), 4 * step) << dtype;
    EXPECT_NEAR(running_mean[0].item<double>(), 3.0, 0.01) << dtype;  // 0.1 of the mean, 30
  }
}

TEST(BatchNorm, EvalLeavesRunningStatisticsAlone) {
  nn::BatchNorm2d bn(2);
  bn->eval();
  bn->forward(ones({2, 2, 3, 3}));
  EXPECT_TRUE(equal(bn->running_mean, zeros({2})));
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 0);
}

TEST(BatchNorm, WrongChannelCountNamesLayerAndShapes) {
  expect_error_containing([] { nn::BatchNorm2d(16)->forward(zeros({2, 8, 4, 4})); }, "BatchNorm2d");
  expect_error_containing(
      [] {
        nn::BatchNorm2d(16)->forward(zeros({2, 8, 4, 4}));
      },
      "[2, 8, 4, 4]");
  expect_error_containing([] { nn::BatchNorm2d(16)->forward(zeros({2, 8, 4, 4})); }, "C = 16");
  expect_error_containing(
      [] {
        nn::BatchNorm1d(3)->forward(zeros({2, 3, 4, 4}));
      },
      "[N, C] or [N, C, L]");
  expect_error_containing(
      [] {
        nn::BatchNorm1d(3)->forward(zeros({1, 3}));
      },
      "more than 1 value per channel");
}

TEST(LayerNormGroupNorm, InputErrorsNameLayerAndShapes) {
  expect_error_containing(
      [] {
        nn::LayerNorm(std::vector<int64_t>{4})->forward(zeros({2, 5}));
      },
      "LayerNorm");
  expect_error_containing(
      [] {
        nn::LayerNorm(std::vector<int64_t>{4})->forward(zeros({2, 5}));
      },
      "[2, 5]");
  expect_error_containing([] { nn::GroupNorm(2, 4)->forward(zeros({2, 6, 3})); }, "GroupNorm");
  expect_error_containing([] { nn::GroupNorm(3, 4); }, "divisible");
  expect_error_containing([] { F::group_norm(zeros({2, 6, 3}), 4); }, "num_groups 4");
  expect_error_containing(
      [] {
        F::group_norm(zeros({2, 6, 3}, kInt64), 3);
      },
      "group_norm: expected a floating-point input");
}

TEST(InstanceNorm, UnbatchedInputNormalizesEachChannel) {
  nn::InstanceNorm2d norm(2);
  const Tensor x =
      arange(18.0, kFloat64).reshape({2, 3, 3}).mul(arange(18.0, kFloat64).reshape({2, 3, 3}));
  const Tensor y = norm->forward(x);
  EXPECT_EQ(y.sizes(), x.sizes());
  EXPECT_TRUE(allclose(y, norm->forward(x.unsqueeze(0)).squeeze(0)));
  EXPECT_TRUE(allclose(y.mean({1, 2}), zeros({2}, kFloat64), 0, 1e-12));
  EXPECT_TRUE(allclose(y.var({1, 2}, /*correction=*/0), ones({2}, kFloat64), 1e-4, 0));
}

TEST(InstanceNorm, StateDictAndEvalUseRunningStatisticsWhenTracked) {
  nn::InstanceNorm1d plain(4);
  EXPECT_TRUE(plain->state_dict().empty());
  nn::InstanceNorm1d tracked(nn::InstanceNormOptions(2).track_running_stats(true).affine(true));
  EXPECT_EQ(tracked->state_dict().keys(),
            (std::vector<std::string>{"weight", "bias", "running_mean", "running_var",
                                      "num_batches_tracked"}));
  tracked->eval();
  // Running statistics 0 and 1: eval leaves the input as it is (up to eps).
  const Tensor x = randn({3, 2, 5});
  EXPECT_TRUE(allclose(tracked->forward(x), x, 1e-4, 1e-5));
}

TEST(InstanceNorm, InputErrorsNameLayerAndShapes) {
  expect_error_containing(
      [] {
        nn::InstanceNorm2d(3)->forward(zeros({2, 3}));
      },
      "InstanceNorm2d: expected input of shape [N, C, H, W] or [C, H, W]");
  expect_error_containing(
      [] {
        nn::InstanceNorm1d(nn::InstanceNormOptions(3).affine(true))->forward(zeros({2, 4, 5}));
      },
      "with C = 3 (num_features), got [2, 4, 5]");
  expect_error_containing(
      [] { nn::InstanceNorm1d(nn::InstanceNormOptions(3).affine(true))->forward(zeros({})); },
      "InstanceNorm1d: expected input of shape [N, C, L] or [C, L] with C = 3");
  // Without parameters or statistics any channel count is accepted, as PyTorch.
  EXPECT_EQ(nn::InstanceNorm1d(3)->forward(randn({2, 4, 5})).sizes(),
            (std::vector<int64_t>{2, 4, 5}));
  expect_error_containing(
      [] {
        F::instance_norm(zeros({2, 3, 1, 1}));
      },
      "instance_norm: expected more than 1 spatial element");
  expect_error_containing(
      [] {
        F::instance_norm(zeros({2, 3, 4}), {}, {}, zeros({2}));
      },
      "instance_norm: expected weight of shape [3]");
  expect_error_containing(
      [] {
        nn::BatchNorm3d(2)->forward(zeros({2, 2, 3, 3}));
      },
      "BatchNorm3d: expected input of shape [N, C, D, H, W]");
}

TEST(RMSNorm, DefaultEpsIsTheComputingTypesEpsilon) {
  // mean(x^2) = 1e-8 next to float32's epsilon 1.19e-7 (PyTorch: 0.2782); float64's is negligible.
  EXPECT_NEAR(F::rms_norm(full({1, 4}, 1e-4), {4})[0][0].item<double>(), 0.27822, 1e-4);
  EXPECT_NEAR(F::rms_norm(full({1, 4}, 1e-4, kFloat64), {4})[0][0].item<double>(), 1.0, 1e-7);
  const Tensor half = F::rms_norm(full({2, 4}, 1e-3, kFloat16), {4}, ones({4}));
  EXPECT_EQ(half.dtype(), kFloat16);
  // float32's epsilon, not float16's 9.8e-4: 1e-3 / sqrt(1e-6 + 1.19e-7) (PyTorch: 0.9453).
  EXPECT_NEAR(half[0][0].item<double>(), 0.9453, 1e-3);
}

TEST(RMSNormLocalResponseNorm, ErrorsNameOpAndShapes) {
  expect_error_containing(
      [] {
        nn::RMSNorm(std::vector<int64_t>{4})->forward(zeros({2, 5}));
      },
      "rms_norm: normalized_shape [4] must be non-empty and match the "
      "trailing dims of input [2, 5]");
  expect_error_containing(
      [] {
        F::rms_norm(zeros({2, 4}), {4}, zeros({3}));
      },
      "expected a floating-point weight of shape [4]");
  expect_error_containing(
      [] {
        F::local_response_norm(zeros({2, 4}), 2);
      },
      "local_response_norm: expected input of shape [N, C, *] with 3 or more "
      "dims, got [2, 4]");
  expect_error_containing([] { nn::LocalResponseNorm(0); }, "size must be positive");
}

}  // namespace
}  // namespace accel
