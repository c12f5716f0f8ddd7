// nn::Module tests: the quickstart model, PyTorch's parameter naming and order,
// in-place dtype moves, state_dict round trips and load errors, modes, holders, containers.
#include <gtest/gtest.h>

#include "accel/accel.h"

namespace accel {
namespace {

// The quickstart model exactly as the quickstart writes it.
struct MNISTModelImpl : nn::Module {
  nn::Sequential main{nn::Linear(784, 128), nn::ReLU(),         nn::Linear(128, 64),
                      nn::ReLU(),           nn::Linear(64, 10), nn::LogSoftmax(1)};
  MNISTModelImpl() { register_module("main", main); }
  Tensor forward(const Tensor& input) override {
    return main->forward(input.view({input.size(0), -1}));
  }
};
ACCEL_MODULE(MNISTModel);

// A module with a buffer and a nested child, to check state_dict's order.
struct BlockImpl : nn::Module {
  nn::Linear proj{nn::Linear(3, 2)};
  Tensor scale;
  Tensor running;
  BlockImpl() {
    scale = register_parameter("scale", ones({2}));
    running = register_buffer("running", zeros({2}));
    register_module("proj", proj);
  }
  Tensor forward(const Tensor& x) override { return proj->forward(x) * scale; }
};
ACCEL_MODULE(Block);

std::vector<std::string> keys_of(const nn::OrderedDict<Tensor>& dict) { return dict.keys(); }

TEST(Module, QuickstartModelForward) {
  MNISTModel model;
  Tensor x = rand({2, 1, 28, 28});
  Tensor out = model->forward(x);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 10}));
  Tensor row_sums = out.exp().sum({1});
  EXPECT_TRUE(row_sums.allclose(ones({2}), 1e-5, 1e-5));
  std::shared_ptr<nn::Module> as_module = model;
  EXPECT_EQ(as_module.get(), model.get());
  EXPECT_EQ(model->name(), "MNISTModel");
}

TEST(Module, NamedParametersFollowPyTorchNaming) {
  MNISTModel model;
  std::vector<std::string> expected = {"main.0.weight", "main.0.bias",   "main.2.weight",
                                       "main.2.bias",   "main.4.weight", "main.4.bias"};
  EXPECT_EQ(keys_of(model->named_parameters()), expected);
  EXPECT_EQ(model->parameters().size(), 6u);
  EXPECT_EQ(model->parameters(false).size(), 0u);
  EXPECT_EQ(model->named_parameters()["main.2.weight"].sizes(), IntArrayRef({64, 128}));
  for (const Tensor& p : model->parameters()) EXPECT_TRUE(p.requires_grad());
  // Items read as LibTorch's (key(), value()) or as pairs.
  for (const auto& item : model->named_parameters()) {
    EXPECT_EQ(item.key(), item.first);
    EXPECT_TRUE(item.value().is_same(item.second));
  }
  const auto named = model->named_parameters();
  const auto& [name, weight] = *named.begin();
  EXPECT_EQ(name, "main.0.weight");
  EXPECT_EQ(weight.dim(), 2);
  // Parameters are the layers' own tensors.
  auto first = model->main->at<nn::LinearImpl>(0);
  EXPECT_TRUE(model->parameters()[0].is_same(first->weight));
}

TEST(Module, ChildrenAndModules) {
  MNISTModel model;
  auto named = model->named_children();
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named.items()[0].first, "main");
  EXPECT_EQ(model->main->children().size(), 6u);
  auto modules = model->named_modules();
  std::vector<std::string> expected = {"",       "main",   "main.0", "main.1",
                                       "main.2", "main.3", "main.4", "main.5"};
  EXPECT_EQ(modules.keys(), expected);
  EXPECT_EQ(model->modules(false).size(), 7u);
  EXPECT_EQ(modules["main.1"]->name(), "ReLU");
}

TEST(Module, ModulesOfUnownedModuleIsClearError) {
  BlockImpl block;
  EXPECT_EQ(block.modules(false).size(), 1u);
  EXPECT_THROW(block.modules(), Error);
}

TEST(Module, StateDictOrderIsParametersThenBuffersPerModule) {
  Block block;
  std::vector<std::string> expected = {"scale", "running", "proj.weight", "proj.bias"};
  EXPECT_EQ(keys_of(block->state_dict()), expected);
  EXPECT_EQ(keys_of(block->named_buffers()), std::vector<std::string>{"running"});
  EXPECT_EQ(block->buffers().size(), 1u);
  EXPECT_FALSE(block->state_dict()["scale"].requires_grad());
}

TEST(Module, ToDtypeKeepsTensorIdentity) {
  MNISTModel model;
  std::vector<Tensor> before = model->parameters();
  Tensor original = before[0].clone();
  Tensor x = rand({3, 784});
  model->forward(x).sum().backward();
  model->to(kFloat64);
  std::vector<Tensor> after = model->parameters();
  ASSERT_EQ(before.size(), after.size());
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_TRUE(before[i].is_same(after[i]));
    EXPECT_EQ(before[i].dtype(), kFloat64);
    EXPECT_TRUE(before[i].requires_grad());
    EXPECT_TRUE(before[i].is_leaf());
    EXPECT_EQ(before[i].grad().dtype(), kFloat64);
  }
  EXPECT_TRUE(before[0].allclose(original.to(kFloat64)));
  // Training continues in the new dtype, accumulating into the converted gradients.
  model->zero_grad();
  model->forward(x.to(kFloat64)).sum().backward();
  EXPECT_EQ(before[0].grad().dtype(), kFloat64);
  EXPECT_EQ(before[0].grad().sizes(), before[0].sizes());
}

TEST(Module, ToDtypeLeavesIntegerBuffers) {
  struct CounterImpl : nn::Module {
    CounterImpl() { register_buffer("count", zeros({1}, kInt64)); }
  };
  auto counter = std::make_shared<CounterImpl>();
  counter->to(kFloat64);
  EXPECT_EQ(counter->buffers()[0].dtype(), kInt64);
}

TEST(Module, ZeroGrad) {
  nn::Linear linear(3, 2);
  linear->forward(ones({1, 3})).sum().backward();
  ASSERT_TRUE(linear->weight.grad().defined());
  Tensor grad = linear->weight.grad();
  linear->zero_grad(false);
  EXPECT_TRUE(linear->weight.grad().is_same(grad));
  EXPECT_EQ(linear->weight.grad().abs().sum().item<float>(), 0.f);
  linear->zero_grad();
  EXPECT_FALSE(linear->weight.grad().defined());
}

TEST(Module, TrainEvalRecurse) {
  MNISTModel model;
  EXPECT_TRUE(model->is_training());
  model->eval();
  for (const auto& m : model->modules()) EXPECT_FALSE(m->is_training());
  model->train();
  for (const auto& m : model->modules()) EXPECT_TRUE(m->is_training());
}

TEST(Module, ApplyVisitsChildrenThenSelf) {
  MNISTModel model;
  std::vector<std::string> order;
  model->apply([&](nn::Module& m) { order.push_back(m.name()); });
  ASSERT_EQ(order.size(), 8u);
  EXPECT_EQ(order.front(), "Linear");
  EXPECT_EQ(order[6], "Sequential");
  EXPECT_EQ(order.back(), "MNISTModel");
  model->apply([](nn::Module& m) {
    if (auto* linear = dynamic_cast<nn::LinearImpl*>(&m)) nn::init::zeros_(linear->weight);
  });
  EXPECT_EQ(model->parameters()[0].abs().sum().item<float>(), 0.f);
}

TEST(Module, StateDictRoundTrip) {
  MNISTModel source;
  MNISTModel target;
  ASSERT_FALSE(source->parameters()[0].equal(target->parameters()[0]));
  Tensor target_weight = target->parameters()[0];
  target->load_state_dict(source->state_dict());
  for (const auto& [name, tensor] : source->state_dict()) {
    EXPECT_TRUE(tensor.equal(target->state_dict()[name])) << name;
  }
  EXPECT_TRUE(target->parameters()[0].is_same(target_weight));
  EXPECT_TRUE(target_weight.requires_grad());
}

std::string load_error(nn::Module& module, const nn::OrderedDict<Tensor>& dict, bool strict) {
  try {
    module.load_state_dict(dict, strict);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

nn::OrderedDict<Tensor> without(const nn::OrderedDict<Tensor>& dict, const std::string& key) {
  nn::OrderedDict<Tensor> out;
  for (const auto& [name, tensor] : dict) {
    if (name != key) out.insert(name, tensor);
  }
  return out;
}

TEST(Module, LoadStateDictMissingKey) {
  Block block;
  auto dict = without(block->state_dict(), "proj.bias");
  std::string message = load_error(*block, dict, true);
  EXPECT_NE(message.find("load_state_dict"), std::string::npos) << message;
  EXPECT_NE(message.find("missing keys [proj.bias]"), std::string::npos) << message;
  EXPECT_EQ(load_error(*block, dict, false), "");
}

TEST(Module, LoadStateDictUnexpectedKey) {
  Block block;
  auto dict = block->state_dict();
  dict.insert("proj.extra", zeros({1}));
  std::string message = load_error(*block, dict, true);
  EXPECT_NE(message.find("unexpected keys [proj.extra]"), std::string::npos) << message;
  EXPECT_EQ(load_error(*block, dict, false), "");
}

TEST(Module, LoadStateDictShapeMismatchAlwaysFails) {
  Block block;
  auto dict = without(block->state_dict(), "proj.weight");
  dict.insert("proj.weight", zeros({3, 3}));
  Tensor weight_before = block->proj->weight.clone();
  for (bool strict : {true, false}) {
    std::string message = load_error(*block, dict, strict);
    EXPECT_NE(message.find("size mismatch for proj.weight (expected [2, 3], got [3, 3])"),
              std::string::npos)
        << message;
  }
  // Nothing was copied when loading failed.
  EXPECT_TRUE(block->proj->weight.equal(weight_before));
}

TEST(Module, LoadStateDictReportsEveryProblem) {
  Block block;
  auto dict = without(block->state_dict(), "scale");
  dict.insert("bogus", zeros({1}));
  std::string message = load_error(*block, dict, true);
  EXPECT_NE(message.find("missing keys [scale]"), std::string::npos) << message;
  EXPECT_NE(message.find("unexpected keys [bogus]"), std::string::npos) << message;
}

TEST(Module, RegistrationErrors) {
  struct EmptyImpl : nn::Module {};
  auto m = std::make_shared<EmptyImpl>();
  m->register_parameter("w", zeros({2}));
  EXPECT_THROW(m->register_parameter("w", zeros({2})), Error);
  EXPECT_THROW(m->register_buffer("w", zeros({2})), Error);
  EXPECT_THROW(m->register_parameter("a.b", zeros({2})), Error);
  EXPECT_THROW(m->register_parameter("", zeros({2})), Error);
  EXPECT_THROW(m->register_module("w", nn::ReLU()), Error);
  EXPECT_THROW(m->register_module("child", std::shared_ptr<nn::Module>()), Error);
}

TEST(Module, DefaultForwardNamesTheModule) {
  struct NoForwardImpl : nn::Module {};
  NoForwardImpl module;
  try {
    module.forward(zeros({1}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("forward not implemented for NoForward"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("Tensor forward(const Tensor&) override"),
              std::string::npos)
        << e.what();
  }
}

TEST(Module, ReplaceModule) {
  MNISTModel model;
  nn::Sequential replacement{nn::Linear(784, 10)};
  model->main = model->replace_module("main", replacement);
  EXPECT_EQ(model->parameters().size(), 2u);
  EXPECT_EQ(model->forward(zeros({1, 784})).sizes(), IntArrayRef({1, 10}));
  EXPECT_THROW(model->replace_module("nope", nn::ReLU()), Error);
}

TEST(Module, HolderBasics) {
  nn::Linear empty{nullptr};
  EXPECT_TRUE(empty.is_empty());
  EXPECT_THROW(empty->forward(zeros({1})), Error);
  nn::Linear linear(4, 3);
  nn::Linear copy = linear;
  EXPECT_EQ(copy.get(), linear.get());
  EXPECT_EQ(linear(ones({2, 4})).sizes(), IntArrayRef({2, 3}));
  nn::Linear no_bias(nn::LinearOptions(4, 3).bias(false));
  EXPECT_EQ(no_bias->parameters().size(), 1u);
  EXPECT_FALSE(no_bias->bias.defined());
}

TEST(Containers, SequentialPushBackAndForward) {
  nn::Sequential seq;
  seq->push_back(nn::Linear(2, 3));
  seq->push_back(nn::Tanh());
  EXPECT_EQ(seq->size(), 2u);
  EXPECT_EQ(keys_of(seq->named_parameters()), (std::vector<std::string>{"0.weight", "0.bias"}));
  Tensor x = randn({4, 2});
  auto linear = seq->at<nn::LinearImpl>(0);
  EXPECT_TRUE(seq->forward(x).allclose(linear->forward(x).tanh()));
  EXPECT_THROW(seq->at<nn::LinearImpl>(1), Error);
  EXPECT_THROW((*seq)[2], Error);
  EXPECT_THROW(nn::Sequential()->forward(x), Error);
}

TEST(Containers, ModuleListAndDictNaming) {
  nn::ModuleList list{nn::Linear(2, 2), nn::Linear(2, 1)};
  EXPECT_EQ(keys_of(list->named_parameters()),
            (std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias"}));
  EXPECT_THROW(list->forward(zeros({1, 2})), Error);
  nn::ModuleDict dict;
  dict->insert("encoder", nn::Linear(2, 2));
  dict->insert("head", nn::Linear(2, 1));
  EXPECT_TRUE(dict->contains("head"));
  EXPECT_EQ(dict->keys(), (std::vector<std::string>{"encoder", "head"}));
  EXPECT_EQ(dict->named_parameters().size(), 4u);
  EXPECT_THROW(dict->insert("head", nn::ReLU()), Error);
  EXPECT_THROW((*dict)["missing"], Error);
}

}  // namespace
}  // namespace accel
