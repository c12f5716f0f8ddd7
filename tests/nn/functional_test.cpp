// The functional layers: linear, bilinear, leaky_relu, pad, scaled_dot_product_attention,
// interpolate and pixel_shuffle against PyTorch fixtures (tests/reference/cases_nn_functional.py),
// the dropouts' statistics and modes, the padding and reshaping layers, and errors.
#include <cmath>
#include <string>

#include "accel/nn/functional/activations.h"
#include "accel/nn/functional/attention.h"
#include "accel/nn/functional/channel_shuffle.h"
#include "accel/nn/functional/dropout.h"
#include "accel/nn/functional/interpolate.h"
#include "accel/nn/functional/linear.h"
#include "accel/nn/functional/pad.h"
#include "accel/nn/functional/pixel_shuffle.h"
#include "accel/nn/modules/dropout.h"
#include "accel/nn/modules/linear.h"
#include "accel/nn/modules/padding.h"
#include "accel/nn/modules/reshape.h"
#include "accel/nn/modules/upsample.h"
#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;

const std::vector<OpCase> kFunctionalCases = {
    {"linear", [](const V& x) { return F::linear(x[0], x[1], x[2]); }},
    {"linear_no_bias", [](const V& x) { return F::linear(x[0], x[1]); }},
    {"linear_batched", [](const V& x) { return F::linear(x[0], x[1], x[2]); }},
    {"linear_vector", [](const V& x) { return F::linear(x[0], x[1], x[2]); }},
    {"leaky_relu", [](const V& x) { return F::leaky_relu(x[0]); }},
    {"leaky_relu_slope", [](const V& x) { return F::leaky_relu(x[0], 0.2); }},
    {"pad_constant",
     [](const V& x) {
       return F::pad(x[0], {1, 2});
     }},
    {"pad_constant_value_2d",
     [](const V& x) {
       return F::pad(x[0], F::PadFuncOptions({1, 0, 2, 1}).value(0.5));
     }},
    {"pad_negative",
     [](const V& x) {
       return F::pad(x[0], {-1, 2, 1, -2});
     }},
    {"pad_reflect",
     [](const V& x) {
       return F::pad(x[0], F::PadFuncOptions({2, 1}).mode(F::PadMode::Reflect));
     }},
    {"pad_reflect_2d",
     [](const V& x) {
       return F::pad(x[0], F::PadFuncOptions({1, 1, 2, 0}).mode(F::PadMode::Reflect));
     }},
    {"pad_replicate_2d",
     [](const V& x) {
       return F::pad(x[0], F::PadFuncOptions({2, 1, 1, 3}).mode(F::PadMode::Replicate));
     }},
    {"pad_replicate_3d",
     [](const V& x) {
       return F::pad(x[0], F::PadFuncOptions({1, 0, 0, 1, 1, 1}).mode(F::PadMode::Replicate));
     }},
    {"pad_circular",
     [](const V& x) {
       return F::pad(x[0], F::PadFuncOptions({2, 4}).mode(F::PadMode::Circular));
     }},
    {"sdpa", [](const V& x) { return F::scaled_dot_product_attention(x[0], x[1], x[2]); }},
    {"sdpa_causal",
     [](const V& x) { return F::scaled_dot_product_attention(x[0], x[1], x[2], {}, 0.0, true); }},
    {"sdpa_causal_rectangular",
     [](const V& x) { return F::scaled_dot_product_attention(x[0], x[1], x[2], {}, 0.0, true); }},
    {"sdpa_bool_mask_with_an_empty_row",
     [](const V& x) {
       const Tensor mask = tensor({{true, false, true, true, false},
                                   {false, false, false, false, false},
                                   {true, true, true, true, true}});
       return F::scaled_dot_product_attention(x[0], x[1], x[2], mask);
     }},
    {"sdpa_float_mask_and_scale",
     [](const V& x) {
       return F::scaled_dot_product_attention(x[0], x[1], x[2], x[3], 0.0, false, 0.3);
     }},
    {"interpolate_nearest_size",
     [](const V& x) { return F::interpolate(x[0], F::InterpolateFuncOptions().size({4})); }},
    {"interpolate_nearest_scale_2d",
     [](const V& x) {
       return F::interpolate(x[0], F::InterpolateFuncOptions().scale_factor({2, 1.5}));
     }},
    {"interpolate_nearest_downscale",
     [](const V& x) {
       return F::interpolate(x[0], F::InterpolateFuncOptions().scale_factor({0.3}));
     }},
    {"interpolate_nearest_3d",
     [](const V& x) {
       return F::interpolate(x[0], F::InterpolateFuncOptions().size({3, 2, 5}));
     }},
    {"interpolate_linear",
     [](const V& x) {
       return F::interpolate(
           x[0], F::InterpolateFuncOptions().size({7}).mode(F::InterpolateMode::Linear));
     }},
    {"interpolate_linear_downscale",
     [](const V& x) {
       return F::interpolate(
           x[0], F::InterpolateFuncOptions().scale_factor({0.3}).mode(F::InterpolateMode::Linear));
     }},
    {"interpolate_linear_align_corners",
     [](const V& x) {
       return F::interpolate(x[0], F::InterpolateFuncOptions()
                                       .size({7})
                                       .mode(F::InterpolateMode::Linear)
                                       .align_corners(true));
     }},
    {"interpolate_bilinear",
     [](const V& x) {
       return F::interpolate(
           x[0], F::InterpolateFuncOptions().scale_factor({2}).mode(F::InterpolateMode::Bilinear));
     }},
    {"interpolate_bilinear_size_align_corners",
     [](const V& x) {
       return F::interpolate(x[0], F::InterpolateFuncOptions()
                                       .size({5, 2})
                                       .mode(F::InterpolateMode::Bilinear)
                                       .align_corners(true));
     }},
    {"interpolate_nearest_scale_keeps_size",
     [](const V& x) {
       return F::interpolate(x[0], F::InterpolateFuncOptions().scale_factor({1.05}));
     }},
    {"interpolate_nearest_exact",
     [](const V& x) {
       return F::interpolate(x[0], F::InterpolateFuncOptions()
                                       .scale_factor({2.5, 0.6})
                                       .mode(F::InterpolateMode::NearestExact));
     }},
    {"interpolate_bicubic",
     [](const V& x) {
       return F::interpolate(
           x[0], F::InterpolateFuncOptions().scale_factor({2}).mode(F::InterpolateMode::Bicubic));
     }},
    {"interpolate_bicubic_downscale",
     [](const V& x) {
       return F::interpolate(
           x[0], F::InterpolateFuncOptions().scale_factor({0.6}).mode(F::InterpolateMode::Bicubic));
     }},
    {"interpolate_bicubic_align_corners",
     [](const V& x) {
       return F::interpolate(x[0], F::InterpolateFuncOptions()
                                       .size({2, 5})
                                       .mode(F::InterpolateMode::Bicubic)
                                       .align_corners(true));
     }},
    {"interpolate_trilinear",
     [](const V& x) {
       return F::interpolate(
           x[0], F::InterpolateFuncOptions().size({3, 4, 2}).mode(F::InterpolateMode::Trilinear));
     }},
    {"interpolate_area_downscale",
     [](const V& x) {
       return F::interpolate(
           x[0], F::InterpolateFuncOptions().size({3, 2}).mode(F::InterpolateMode::Area));
     }},
    {"interpolate_area_upscale",
     [](const V& x) {
       return F::interpolate(x[0],
                             F::InterpolateFuncOptions().size({7}).mode(F::InterpolateMode::Area));
     }},
    {"interpolate_area_3d",
     [](const V& x) {
       return F::interpolate(
           x[0], F::InterpolateFuncOptions().scale_factor({0.5}).mode(F::InterpolateMode::Area));
     }},
    {"pixel_shuffle", [](const V& x) { return nn::PixelShuffle(2)->forward(x[0]); }},
    {"pixel_shuffle_unbatched", [](const V& x) { return F::pixel_shuffle(x[0], 3); }},
    {"pixel_unshuffle", [](const V& x) { return nn::PixelUnshuffle(2)->forward(x[0]); }},
    {"bilinear", [](const V& x) { return F::bilinear(x[0], x[1], x[2], x[3]); }},
    {"bilinear_no_bias_batched", [](const V& x) { return F::bilinear(x[0], x[1], x[2]); }},
    {"bilinear_vectors", [](const V& x) { return F::bilinear(x[0], x[1], x[2], x[3]); }},
    {"channel_shuffle", [](const V& x) { return nn::ChannelShuffle(3)->forward(x[0]); }},
    {"channel_shuffle_1d", [](const V& x) { return F::channel_shuffle(x[0], 2); }},
};

ACCEL_OP_TEST_SUITE(FunctionalOps, "ops_nn_functional.json", kFunctionalCases);

TEST(FunctionalLinear, InFeaturesMismatchNamesShapes) {
  try {
    (void)F::linear(zeros({2, 4}), zeros({5, 3}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("linear"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[2, 4]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[5, 3]"), std::string::npos) << msg;
  }
  EXPECT_THROW((void)F::linear(zeros({2, 3}), zeros({5, 3}), zeros({4})), Error);
}

TEST(FunctionalLeakyRelu, GradientAtZeroIsTheSlope) {
  const Tensor x = zeros({1}, kFloat64).requires_grad_();
  F::leaky_relu(x, 0.3).sum().backward();
  EXPECT_DOUBLE_EQ(x.grad().item<double>(), 0.3);
}

TEST(FunctionalDropout, EvalAndZeroProbabilityAreIdentity) {
  const Tensor x = randn({10});
  EXPECT_TRUE(F::dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(F::dropout(x, 0.0, true).is_same(x));
  EXPECT_TRUE(F::dropout(x, 1.0, true).equal(zeros({10})));
}

TEST(FunctionalDropout, KeepsExpectationAndScalesSurvivors) {
  Generator gen(7);
  const double p = 0.3;
  const Tensor x = ones({200000}, kFloat64).requires_grad_();
  const Tensor y = F::dropout(x, p, true, &gen);
  const double kept = (y > 0).to(kFloat64).mean().item<double>();
  EXPECT_NEAR(kept, 1 - p, 5e-3);
  EXPECT_NEAR(y.mean().item<double>(), 1.0, 1e-2);
  // Survivors are exactly 1 / (1 - p); the gradient is the same mask.
  EXPECT_TRUE(
      y.eq(0).to(kInt64).add(y.eq(1 / (1 - p)).to(kInt64)).eq(1).to(kInt64).sum().item<int64_t>() ==
      200000);
  y.sum().backward();
  EXPECT_TRUE(x.grad().equal(y.detach()));
}

TEST(FunctionalDropout, RejectsBadProbability) {
  EXPECT_THROW((void)F::dropout(ones({2}), 1.5), Error);
  EXPECT_THROW((void)F::dropout(ones({2}), -0.1), Error);
}

TEST(FunctionalPad, Errors) {
  const Tensor x = zeros({2, 3});
  testing::expect_error_containing([&] { (void)F::pad(x, {1}); },
                                   "pad: the padding [1] must hold an even number");
  testing::expect_error_containing(
      [&] {
        (void)F::pad(x, {1, 1, 1, 1, 1, 1});
      },
      "covers 3 dims but the input [2, 3] has only 2");
  testing::expect_error_containing([&] { (void)F::pad(x, {-2, -2}); }, "leaves a negative size");
  testing::expect_error_containing(
      [&] {
        (void)F::pad(x, F::PadFuncOptions({3, 0}).mode(F::PadMode::Reflect));
      },
      "reflect padding (3, 0) of dimension 1 must be at most 2 for its size 3");
  testing::expect_error_containing(
      [&] {
        (void)F::pad(x, F::PadFuncOptions({4, 0}).mode(F::PadMode::Circular));
      },
      "circular padding (4, 0)");
  testing::expect_error_containing(
      [&] {
        (void)F::pad(zeros({3}), F::PadFuncOptions({1, 1}).mode(F::PadMode::Replicate));
      },
      "replicate padding of 1 dims needs an input of 2 or 3 dims");
}

TEST(FunctionalPad, IntegerTensorsAndNoPadding) {
  const Tensor x = tensor({1, 2, 3});
  const Tensor padded = F::pad(x, F::PadFuncOptions({1, 1}).value(7));
  EXPECT_EQ(padded.dtype(), kInt64);
  EXPECT_TRUE(padded.equal(tensor({7, 1, 2, 3, 7})));
  EXPECT_TRUE(F::pad(x, {0, 0}).equal(x));
}

TEST(FunctionalAttention, BroadcastsLeadingDims) {
  Generator gen(5);
  const Tensor q = randn({2, 3, 4, 8}, kFloat64, &gen);
  const Tensor k = randn({1, 3, 6, 8}, kFloat64, &gen);
  const Tensor v = randn({1, 3, 6, 5}, kFloat64, &gen);
  const Tensor out = F::scaled_dot_product_attention(q, k, v);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 3, 4, 5}));
  const Tensor expanded = F::scaled_dot_product_attention(q, k.expand({2, 3, 6, 8}).contiguous(),
                                                          v.expand({2, 3, 6, 5}).contiguous());
  EXPECT_TRUE(out.allclose(expanded, 1e-12, 1e-12));
}

TEST(FunctionalAttention, DropoutZeroesWeightsAndScalesTheRest) {
  Generator gen(3);
  const Tensor q = zeros({1, 64, 4}), k = zeros({1, 64, 4});
  const Tensor v = eye(64).unsqueeze(0);  // output = the attention weights
  const Tensor weights =
      F::scaled_dot_product_attention(q, k, v, {}, 0.5, false, std::nullopt, &gen);
  // Every weight is 1/64 before dropout: after it, 0 or 2/64.
  const Tensor kept = weights > 0;
  EXPECT_TRUE(weights.masked_select(kept).allclose(
      full({1}, 2.0 / 64).expand({kept.sum().item<int64_t>()})));
  EXPECT_NEAR(kept.to(kFloat64).mean().item<double>(), 0.5, 0.05);
}

TEST(FunctionalAttention, Errors) {
  const Tensor q = zeros({2, 3, 4}), k = zeros({2, 5, 4}), v = zeros({2, 5, 6});
  testing::expect_error_containing(
      [&] {
        (void)F::scaled_dot_product_attention(q, zeros({2, 5, 3}), v);
      },
      "scaled_dot_product_attention: key [2, 5, 3] must have the query's features (4)");
  testing::expect_error_containing(
      [&] {
        (void)F::scaled_dot_product_attention(q, k, v, ones({3, 5}, kBool), 0.0, true);
      },
      "attn_mask must not be given with is_causal");
  testing::expect_error_containing(
      [&] {
        (void)F::scaled_dot_product_attention(q, k, v, zeros({3, 5}, kFloat64));
      },
      "a float attn_mask must have the query's dtype float32, got float64");
  testing::expect_error_containing(
      [&] { (void)F::scaled_dot_product_attention(q.to(kInt64), k.to(kInt64), v.to(kInt64)); },
      "must share one floating dtype");
  testing::expect_error_containing([&] { (void)F::scaled_dot_product_attention(q, k, v, {}, 1.5); },
                                   "dropout_p must be in [0, 1], got 1.5");
}

// A scale factor of 1.05 keeps 10 elements, read from sources 0, 0, 1, ..., 8: each source's
// gradient sums its readers' (PyTorch's backward copies the gradient through unchanged when the
// sizes match, which its forward does not do).
TEST(FunctionalInterpolate, NearestGradientFollowsTheForwardWhenSizesMatch) {
  Tensor x = arange(10, TensorOptions().dtype(kFloat64)).view({1, 1, 10}).requires_grad_();
  const Tensor y = F::interpolate(x, F::InterpolateFuncOptions().scale_factor({1.05}));
  EXPECT_TRUE(y.view({10}).equal(tensor({0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0})));
  y.backward(arange(1, 11, 1, TensorOptions().dtype(kFloat64)).view({1, 1, 10}));
  EXPECT_TRUE(
      x.grad().view({10}).equal(tensor({3.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 0.0})));
}

TEST(FunctionalInterpolate, ErrorsAndTheUpsampleModule) {
  const Tensor x = ones({1, 2, 3, 4});
  using F::InterpolateFuncOptions;
  testing::expect_error_containing([&] { (void)F::interpolate(x, InterpolateFuncOptions()); },
                                   "interpolate: give exactly one of size and scale_factor");
  testing::expect_error_containing(
      [&] {
        (void)F::interpolate(x, InterpolateFuncOptions().size({2, 2, 2}));
      },
      "the input [1, 2, 3, 4] has 2 spatial dims but 3 sizes were given");
  testing::expect_error_containing(
      [&] {
        (void)F::interpolate(x,
                             InterpolateFuncOptions().size({2}).mode(F::InterpolateMode::Linear));
      },
      "linear takes a 3-D input [N, C, *spatial], got [1, 2, 3, 4]");
  testing::expect_error_containing(
      [&] { (void)F::interpolate(x, InterpolateFuncOptions().size({2}).align_corners(true)); },
      "align_corners can only be set with the linear, bilinear, bicubic and trilinear modes, "
      "not nearest");
  testing::expect_error_containing(
      [&] {
        (void)F::interpolate(
            x,
            InterpolateFuncOptions().size({2}).mode(F::InterpolateMode::Area).align_corners(false));
      },
      "align_corners can only be set with the linear, bilinear, bicubic and trilinear modes, "
      "not area");
  testing::expect_error_containing(
      [&] {
        (void)F::interpolate(ones({1, 2, 3}),
                             InterpolateFuncOptions().size({2}).mode(F::InterpolateMode::Bicubic));
      },
      "bicubic takes a 4-D input [N, C, *spatial], got [1, 2, 3]");
  testing::expect_error_containing(
      [&] {
        (void)F::interpolate(x.to(kInt64),
                             InterpolateFuncOptions().size({2}).mode(F::InterpolateMode::Area));
      },
      "area needs a floating point input, got int64");
  testing::expect_error_containing(
      [&] { (void)F::interpolate(x, InterpolateFuncOptions().scale_factor({0.1})); },
      "scale factor 0.1 makes dimension 2 of size 3 empty");
  testing::expect_error_containing(
      [&] {
        (void)F::interpolate(x.to(kInt64),
                             InterpolateFuncOptions().size({2}).mode(F::InterpolateMode::Bilinear));
      },
      "bilinear needs a floating point input, got int64");
  nn::Upsample up(nn::UpsampleOptions().scale_factor({2}).mode(F::InterpolateMode::Bilinear));
  const Tensor y = up->forward(x);
  EXPECT_EQ(y.sizes(), IntArrayRef({1, 2, 6, 8}));
  EXPECT_TRUE(y.equal(ones({1, 2, 6, 8})));
  EXPECT_EQ(up->extra_repr(), "scale_factor=[2], mode=bilinear");
  // Integer tensors take nearest resampling.
  EXPECT_TRUE(F::interpolate(tensor({1, 2}).view({1, 1, 2}), InterpolateFuncOptions().size({4}))
                  .equal(tensor({1, 1, 2, 2}).view({1, 1, 4})));
}

TEST(FunctionalDropout, ChannelDropoutKeepsOrDropsWholeChannels) {
  Generator gen(5);
  const Tensor x = ones({8, 50, 3, 4});
  const Tensor y = F::dropout2d(x, 0.4, true, &gen);
  const Tensor per_channel = y.amax({2, 3});
  // Each channel is all 0 or all 1 / (1 - p).
  EXPECT_TRUE(y.amin({2, 3}).equal(per_channel));
  const double kept = (per_channel > 0).to(kFloat64).mean().item<double>();
  EXPECT_NEAR(kept, 0.6, 0.06);
  EXPECT_NEAR(per_channel.max().item<double>(), 1 / 0.6, 1e-6);
  // Unbatched 1-D and 3-D inputs draw per channel too.
  const Tensor y1 = F::dropout1d(ones({40, 5}), 0.5, true, &gen);
  EXPECT_TRUE(y1.amin({1}).equal(y1.amax({1})));
  const Tensor y3 = nn::Dropout3d(0.5)->forward(ones({40, 2, 2, 2}));
  EXPECT_TRUE(y3.amin({1, 2, 3}).equal(y3.amax({1, 2, 3})));
  nn::Dropout2d layer(0.5);
  layer->eval();
  EXPECT_TRUE(layer->forward(x).is_same(x));
}

TEST(FunctionalDropout, AlphaDropoutKeepsMeanAndVariance) {
  Generator gen(9);
  const Tensor x = randn({200000}, kFloat64);
  const Tensor y = F::alpha_dropout(x, 0.2, true, &gen);
  EXPECT_NEAR(y.mean().item<double>(), 0.0, 0.01);
  EXPECT_NEAR(y.var().item<double>(), 1.0, 0.02);
  // Dropped elements all take one value: a * -1.758... + b.
  const Tensor features = F::feature_alpha_dropout(randn({4, 30, 5}, kFloat64), 0.5, true, &gen);
  EXPECT_EQ(features.sizes(), IntArrayRef({4, 30, 5}));
  EXPECT_TRUE(F::alpha_dropout(x, 0.2, false).is_same(x));
  EXPECT_TRUE(nn::AlphaDropout(0.3)->forward(x).sizes() == x.sizes());
}

TEST(FunctionalDropout, ChannelDropoutErrors) {
  testing::expect_error_containing(
      [] {
        F::dropout1d(ones({2, 3, 4, 5}));
      },
      "dropout1d: expected a 2-D (unbatched) or 3-D (batched) input");
  testing::expect_error_containing(
      [] {
        F::dropout2d(ones({2, 3}));
      },
      "dropout2d: expected a 4-D [N, C, H, W] input");
  testing::expect_error_containing([] { F::dropout3d(ones({2, 3, 4})); }, "dropout3d");
  testing::expect_error_containing([] { F::feature_alpha_dropout(ones({3}), 0.5, true); },
                                   "feature_alpha_dropout: expected an input with a batch");
  testing::expect_error_containing([] { nn::Dropout2d(2.0); }, "Dropout2d: p must be in [0, 1]");
  testing::expect_error_containing(
      [] {
        F::dropout(tensor({1, 2}));
      },
      "dropout: expected a floating point input, got int64");
}

TEST(PaddingLayers, MatchPad) {
  const Tensor x = randn({2, 3, 4, 5});
  EXPECT_TRUE(nn::ZeroPad2d(1)->forward(x).equal(F::pad(x, {1, 1, 1, 1})));
  EXPECT_TRUE(nn::ConstantPad1d(std::vector<int64_t>{2, 0}, 3.5)
                  ->forward(x)
                  .equal(F::pad(x, F::PadFuncOptions({2, 0}).value(3.5))));
  EXPECT_TRUE(nn::ReflectionPad2d(std::vector<int64_t>{1, 2, 0, 1})
                  ->forward(x)
                  .equal(F::pad(x, F::PadFuncOptions({1, 2, 0, 1}).mode(F::PadMode::Reflect))));
  EXPECT_TRUE(nn::ReplicationPad3d(1)->forward(x).equal(
      F::pad(x, F::PadFuncOptions({1, 1, 1, 1, 1, 1}).mode(F::PadMode::Replicate))));
  const Tensor sequence = randn({2, 3, 5});
  EXPECT_TRUE(nn::CircularPad1d(2)->forward(sequence).equal(
      F::pad(sequence, F::PadFuncOptions({2, 2}).mode(F::PadMode::Circular))));
  EXPECT_EQ(nn::ZeroPad2d(1)->name(), "ZeroPad2d");
  EXPECT_EQ(nn::ConstantPad1d(1, 2.0)->extra_repr(), "padding=[1, 1], value=2");
  testing::expect_error_containing(
      [] {
        nn::ZeroPad2d(std::vector<int64_t>{1, 2, 3});
      },
      "ZeroPad2d: padding must be one value or 4, got [1, 2, 3]");
}

TEST(ReshapeLayers, UnflattenAndPixelShuffle) {
  const Tensor x = randn({2, 12, 3});
  EXPECT_EQ(nn::Unflatten(1, std::vector<int64_t>{3, -1})->forward(x).sizes(),
            IntArrayRef({2, 3, 4, 3}));
  EXPECT_TRUE(x.unflatten(-1, {3, 1}).equal(x.view({2, 12, 3, 1})));
  testing::expect_error_containing(
      [&] {
        x.unflatten(1, {5, -1});
      },
      "unflatten: sizes [5, -1] don't multiply up to the size of dim "
      "1 (12) of the input [2, 12, 3]");
  const Tensor image = randn({2, 8, 3, 5});
  EXPECT_TRUE(F::pixel_unshuffle(F::pixel_shuffle(image, 2), 2).equal(image));
  testing::expect_error_containing(
      [] {
        F::pixel_shuffle(randn({2, 6, 3, 3}), 2);
      },
      "pixel_shuffle: the channel dim (6) of input [2, 6, 3, 3] must "
      "be divisible by the square of upscale_factor (4)");
  testing::expect_error_containing(
      [] {
        F::pixel_unshuffle(randn({1, 3, 5}), 2);
      },
      "pixel_unshuffle: the height and width (3 and 5)");
}

TEST(ReshapeLayers, ChannelShuffleMovesEachChannelAndChecksItsInput) {
  const Tensor x = arange(6).reshape({1, 6, 1});
  EXPECT_TRUE(nn::ChannelShuffle(2)->forward(x).equal(
      tensor({0, 3, 1, 4, 2, 5}, kInt64).reshape({1, 6, 1})));
  EXPECT_EQ(nn::ChannelShuffle(3)->extra_repr(), "groups=3");
  testing::expect_error_containing(
      [] {
        F::channel_shuffle(randn({2, 7, 3}), 3);
      },
      "channel_shuffle: the channel dim (7) of input [2, 7, 3] must be divisible by groups (3)");
  testing::expect_error_containing(
      [] {
        F::channel_shuffle(randn({2, 6}), 3);
      },
      "channel_shuffle: expected an input [N, C, *] of at least 3 "
      "dims, got [2, 6]");
  testing::expect_error_containing(
      [] {
        F::channel_shuffle(randn({2, 6, 1}), 0);
      },
      "channel_shuffle: groups must be positive, got 0");
}

TEST(Bilinear, ParametersInitializationAndErrors) {
  manual_seed(2);
  nn::Bilinear layer(20, 3, 4);
  EXPECT_EQ(layer->weight.sizes(), IntArrayRef({4, 20, 3}));
  EXPECT_EQ(layer->parameters().size(), 2u);
  const double bound = 1 / std::sqrt(20.0);
  EXPECT_LE(layer->weight.abs().max().item<double>(), bound);
  EXPECT_GT(layer->weight.abs().max().item<double>(), 0.9 * bound);
  EXPECT_LE(layer->bias.abs().max().item<double>(), bound);
  const Tensor x1 = randn({5, 20});
  const Tensor x2 = randn({5, 3});
  EXPECT_TRUE(layer->forward(x1, x2).allclose(F::bilinear(x1, x2, layer->weight, layer->bias)));
  EXPECT_EQ(nn::Bilinear(nn::BilinearOptions(2, 3, 4).bias(false))->parameters().size(), 1u);
  EXPECT_EQ(layer->extra_repr(), "in1_features=20, in2_features=3, out_features=4, bias=true");
  testing::expect_error_containing(
      [&] {
        layer->forward(x1, randn({5, 4}));
      },
      "bilinear: expected input1 [*, 20] and input2 [*, 3]");
  testing::expect_error_containing(
      [&] {
        layer->forward(x1, randn({6, 3}));
      },
      "bilinear: input1 [5, 20] and input2 [6, 3] must have the same "
      "leading dims");
  testing::expect_error_containing([] { nn::Bilinear(0, 3, 4); },
                                   "Bilinear: in1_features, in2_features and out_features must be "
                                   "positive, got 0, 3 and 4");
}

}  // namespace
}  // namespace accel
