// Op table for indexing and joining (cases: tests/reference/cases_index.py), then the
// behaviour a table cannot show: error messages, index dtypes, cat's promotion and legacy
// empty-tensor rule, split/chunk piece shapes, and determinism of scatter_add.
#include "accel/core/autograd/node.h"
#include "accel/core/backend.h"
#include "accel/core/stream.h"
#include "support/expect_error.h"
#include "support/index_loop.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using namespace indexing;
using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;

// Split pieces scaled by 1, 2, ... and joined again (cases_index.py: weighted_join).
Tensor weighted_join(const std::vector<Tensor>& pieces, int64_t dim) {
  std::vector<Tensor> scaled;
  for (size_t i = 0; i < pieces.size(); ++i) scaled.push_back(pieces[i] * double(i + 1));
  return cat(scaled, dim);
}

// Unbound pieces scaled by 1, 2, ... and stacked again (cases_index.py: weighted_stack).
Tensor weighted_stack(const std::vector<Tensor>& pieces, int64_t dim) {
  std::vector<Tensor> scaled;
  for (size_t i = 0; i < pieces.size(); ++i) scaled.push_back(pieces[i] * double(i + 1));
  return stack(scaled, dim);
}

const std::vector<OpCase> kIndexCases = {
    {"index_select", [](const V& x) { return index_select(x[0], 0, x[1]); }},
    {"index_select_dim1", [](const V& x) { return x[0].index_select(1, x[1]); }},
    {"index_select_negative_dim", [](const V& x) { return x[0].index_select(-1, x[1]); }},
    {"index_select_int32", [](const V& x) { return x[0].index_select(0, x[1].to(kInt32)); }},
    {"index_select_transposed", [](const V& x) { return x[0].t().index_select(0, x[1]); }},
    {"gather", [](const V& x) { return gather(x[0], 1, x[1]); }},
    {"gather_dim0", [](const V& x) { return x[0].gather(0, x[1]); }},
    {"gather_smaller_index", [](const V& x) { return x[0].gather(1, x[1]); }},
    {"gather_negative_dim", [](const V& x) { return x[0].gather(-1, x[1]); }},
    {"scatter_add", [](const V& x) { return scatter_add(x[0], 1, x[1], x[2]); }},
    {"scatter_add_dim0", [](const V& x) { return x[0].scatter_add(0, x[1], x[2]); }},
    {"scatter_add_partial", [](const V& x) { return x[0].scatter_add(1, x[1], x[2]); }},
    {"cat", [](const V& x) { return cat(x); }},
    {"cat_dim1", [](const V& x) { return cat(x, 1); }},
    {"cat_negative_dim", [](const V& x) { return cat(x, -1); }},
    {"cat_skips_empty_1d", [](const V& x) { return cat(x, 1); }},
    {"cat_promotes", [](const V& x) { return cat(x); }},
    {"cat_non_contiguous",
     [](const V& x) {
       return cat(V{x[0].t(), x[1]}, 0);
     }},
    {"stack", [](const V& x) { return stack(x); }},
    {"stack_dim1", [](const V& x) { return stack(x, 1); }},
    {"stack_negative_dim", [](const V& x) { return stack(x, -1); }},
    {"split", [](const V& x) { return weighted_join(x[0].split(2, 1), 1); }},
    {"split_sizes",
     [](const V& x) {
       return weighted_join(x[0].split({1, 3, 2}, 0), 0);
     }},
    {"chunk", [](const V& x) { return weighted_join(x[0].chunk(3, 1), 1); }},
    {"chunk_fewer", [](const V& x) { return weighted_join(x[0].chunk(4, -2), 0); }},
    {"index_basic",
     [](const V& x) {
       return x[0].index({Slice(1, None), None, Ellipsis, -1});
     }},
    {"index_tensor",
     [](const V& x) {
       return x[0].index({Slice(), x[1]});
     }},
    {"index_tensors_apart",
     [](const V& x) {
       return x[0].index({x[1], Slice(), x[2]});
     }},
    {"index_mask", [](const V& x) { return x[0].index({x[0] > 0}); }},
    {"index_put",
     [](const V& x) {
       return x[0].clone().index_put_({tensor({2, 0})}, x[1]);
     }},
    {"index_put_accumulate",
     [](const V& x) { return x[0].clone().index_put_({x[1]}, x[2], /*accumulate=*/true); }},
    {"masked_select", [](const V& x) { return masked_select(x[0], x[0].sum(1, true) > 0); }},
    {"unbind", [](const V& x) { return weighted_stack(x[0].unbind(), 0); }},
    {"unbind_dim1", [](const V& x) { return weighted_stack(unbind(x[0], 1), 1); }},
    {"split_partly_used",
     [](const V& x) {
       const V p = x[0].split(2, 1);
       return cat(V{p[0], p[2] * 3.0}, 1);
     }},
    {"unbind_partly_used", [](const V& x) { return x[0].unbind(0)[1] * 3.0; }},
};

ACCEL_OP_TEST_SUITE(IndexOps, "ops_index.json", kIndexCases);

using testing::error_of;

std::vector<double> values(const Tensor& t) {
  const Tensor c = t.to(kFloat64).contiguous();
  return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}

TEST(IndexSelect, OutOfRangeNamesOpValueAndDimSize) {
  const Tensor a = zeros({3, 4});
  const std::string message = error_of([&] { index_select(a, 1, tensor({0, 4, 1})); });
  EXPECT_NE(message.find("index_select"), std::string::npos) << message;
  EXPECT_NE(message.find("index 4"), std::string::npos) << message;
  EXPECT_NE(message.find("size 4"), std::string::npos) << message;
  EXPECT_NE(error_of([&] { index_select(a, 0, tensor({-1})); }).find("index -1"),
            std::string::npos);
}

TEST(IndexSelect, RejectsNonIntegerAndMultiDimIndex) {
  const Tensor a = zeros({3, 4});
  EXPECT_NE(error_of([&] { index_select(a, 0, tensor({0.f})); }).find("float32"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              index_select(a, 0, zeros({2, 2}, kInt64));
            }).find("index_select"),
            std::string::npos);
  EXPECT_NE(error_of([&] { index_select(a, 0, tensor({true})); }).find("bool"), std::string::npos);
}

TEST(IndexSelect, ScalarIndexKeepsTheDim) {
  const Tensor a = arange(12, kFloat32).view({3, 4});
  const Tensor out = index_select(a, 0, scalar_tensor(2, kInt64));
  EXPECT_EQ(out.sizes(), IntArrayRef({1, 4}));
  EXPECT_EQ(values(out), (std::vector<double>{8, 9, 10, 11}));
}

TEST(IndexSelect, RepeatedIndicesSumTheirGradients) {
  Tensor a = ones({3}, kFloat64).requires_grad_();
  index_select(a, 0, tensor({2, 0, 2, 2})).sum().backward();
  EXPECT_EQ(values(a.grad()), (std::vector<double>{1, 0, 3}));
}

TEST(Gather, OutOfRangeIsCheckedBeforeAnyWrite) {
  const Tensor a = zeros({2, 3});
  const std::string message = error_of([&] { gather(a, 1, tensor({0, 1, 7, 2}).view({2, 2})); });
  EXPECT_NE(message.find("gather"), std::string::npos) << message;
  EXPECT_NE(message.find("index 7"), std::string::npos) << message;
  EXPECT_NE(message.find("size 3"), std::string::npos) << message;
}

// The kernels test indices a block at a time as they move them, on every thread: the error
// names the first bad index in the index's order whichever thread met it first, for each shape
// of run (contiguous, strided, one index per run) and int32 as well as int64 indices; an
// in-place form leaves self as it was.
TEST(IndexRange, TheFirstBadIndexIsReportedOnAnyThreadCount) {
  const int64_t rows = 600, columns = 1000;
  Tensor index = randint(0, columns, {rows, columns});
  index[150][7].fill_(-3);             // the first bad one: in the first thread's half
  index[450][900].fill_(columns + 5);  // in the second's
  const Tensor input = randn({rows, columns});
  const int threads = get_num_threads();
  for (int t : {1, 2, 4}) {
    set_num_threads(t);
    for (const ScalarType type : {kInt64, kInt32}) {
      const Tensor typed = index.to(type);
      const std::string in_order = "index -3 is out of bounds for dimension 1 with size 1000";
      expect_error_containing([&] { input.gather(1, typed); }, "gather: " + in_order);
      expect_error_containing([&] { input.gather(1, typed.t().contiguous().t()); },
                              "gather: " + in_order);
      Tensor self = zeros({rows, columns});
      expect_error_containing([&] { self.scatter_add_(1, typed, input); },
                              "scatter_add: " + in_order);
      EXPECT_TRUE(self.equal(zeros({rows, columns})));
      const Tensor late = typed.narrow(0, 300, 300);  // its first bad index: in the second half
      expect_error_containing([&] { input.narrow(0, 0, 300).gather(1, late); },
                              "gather: index 1005 is out of bounds for dimension 1 with size 1000");
    }
    expect_error_containing(
        [&] {
          input.index_select(0, tensor({3, 599, 600, -1}));
        },
        "index_select: index 600 is out of bounds for dimension 0 with size 600");
    expect_error_containing(
        [&] {
          input.index_add(1, tensor({0, 1000}), ones({rows, 2}));
        },
        "index_add: index 1000 is out of bounds for dimension 1 with size 1000");
  }
  set_num_threads(threads);
}

// The kernels behind the ops, called through the CPU table with no check before them: they
// throw the error the call names rather than read or write through an index outside
// [0, dim_size). Input [3, 4], indexed along dim 0 by a [1, 4] index.
TEST(IndexRange, KernelsTestEachIndexThemselves) {
  const Tensor index = tensor({1, 9, 0, -2}).reshape({1, 4});
  const std::vector<int64_t> dim0_zeroed = {0, 1};  // a contiguous [3, 4]'s, dim 0 zeroed
  const Tensor input = arange(12.0, kFloat32).reshape({3, 4});
  const Tensor out = zeros({1, 4});
  expect_error_containing(
      [&] {
        backend(kCPU).gather(kFloat32, kInt64,
                             testing::index_loop(index, out, out.strides(), input, dim0_zeroed),
                             4 * 4, 3, {"gather", 0}, current_stream(kCPU));
      },
      "gather: index 9 is out of bounds for dimension 0 with size 3");
  const Tensor self = zeros({3, 4});
  const Tensor src = ones({1, 4});
  expect_error_containing(
      [&] {
        backend(kCPU).scatter(math::ScatterReduce::Sum, kFloat32, kInt64,
                              testing::index_loop(index, self, dim0_zeroed, src, src.strides()),
                              4 * 4, 3, {"scatter_add", 0}, current_stream(kCPU));
      },
      "scatter_add: index 9 is out of bounds for dimension 0 with size 3");
}

TEST(Gather, RejectsIndexLargerThanInputOutsideDim) {
  const std::string message = error_of([&] { gather(zeros({3, 4}), 1, zeros({4, 1}, kInt64)); });
  EXPECT_NE(message.find("gather"), std::string::npos) << message;
  EXPECT_NE(message.find("[4, 1]"), std::string::npos) << message;
  EXPECT_NE(error_of([&] {
              gather(zeros({3, 4}), 1, zeros({3}, kInt64));
            }).find("dimensions"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gather(zeros({3, 4}), 1, zeros({3, 1}));
            }).find("index"),
            std::string::npos);
}

TEST(ScatterAdd, ScatterIntoSelfLeavesInputUntouched) {
  const Tensor self = zeros({2, 3});
  const Tensor out = scatter_add(self, 1, tensor({0, 0, 2, 1}).view({2, 2}),
                                 tensor({1.f, 2.f, 3.f, 4.f}).view({2, 2}));
  EXPECT_EQ(values(out), (std::vector<double>{3, 0, 0, 0, 4, 3}));
  EXPECT_EQ(values(self), (std::vector<double>(6, 0.0)));
}

TEST(ScatterAdd, ErrorsNameOpAndValues) {
  const Tensor self = zeros({2, 3});
  const Tensor src = ones({2, 2});
  const std::string range = error_of([&] {
    scatter_add(self, 1, tensor({0, 3, 1, 1}).view({2, 2}), src);
  });
  EXPECT_NE(range.find("scatter_add"), std::string::npos) << range;
  EXPECT_NE(range.find("index 3"), std::string::npos) << range;
  const std::string dtype = error_of([&] {
    scatter_add(self, 1, zeros({2, 2}, kInt64), src.to(kFloat64));
  });
  EXPECT_NE(dtype.find("float64"), std::string::npos) << dtype;
  const std::string shape = error_of([&] { scatter_add(self, 1, zeros({2, 3}, kInt64), src); });
  EXPECT_NE(shape.find("src"), std::string::npos) << shape;
}

TEST(ScatterAdd, SrcLargerThanIndexGetsZeroGradientOutsideTheIndex) {
  Tensor self = zeros({2, 3}, kFloat64).requires_grad_();
  Tensor src = arange(8, kFloat64).view({2, 4}).requires_grad_();
  const Tensor index = tensor({2, 0}).view({2, 1});
  const Tensor grad = arange(6, kFloat64).view({2, 3});
  scatter_add(self, 1, index, src).backward(grad);
  EXPECT_EQ(values(self.grad()), values(grad));
  EXPECT_EQ(values(src.grad()), (std::vector<double>{2, 0, 0, 0, 3, 0, 0, 0}));
}

TEST(ScatterAdd, RepeatedIndicesAddInTheSameOrderWhateverTheThreadCount) {
  const int64_t n = 200000;
  const Tensor src = randn({n}, kFloat32);
  const Tensor index = randint(0, 7, {n});
  const int threads = get_num_threads();
  set_num_threads(1);
  const Tensor one = scatter_add(zeros({7}), 0, index, src);
  set_num_threads(std::max(threads, 4));
  const Tensor many = scatter_add(zeros({7}), 0, index, src);
  set_num_threads(threads);
  EXPECT_TRUE(one.equal(many));
}

// index_add's rows (an index the same along the innermost dim) split across threads by
// columns; each destination still adds its rows in the index's order.
TEST(IndexAdd, RepeatedIndicesAddRowsInOrderWhateverTheThreadCount) {
  manual_seed(4);
  const Tensor source = randn({40, 3000}, kFloat32);
  const Tensor index = randint(0, 5, {40});
  std::vector<float> expected(5 * 3000, 0.f);
  for (int64_t j = 0; j < 40; ++j) {
    const int64_t row = index.data_ptr<int64_t>()[j];
    for (int64_t c = 0; c < 3000; ++c) {
      expected[static_cast<size_t>(row * 3000 + c)] += source.data_ptr<float>()[j * 3000 + c];
    }
  }
  const int threads = get_num_threads();
  for (int t : {1, 4}) {
    set_num_threads(t);
    const Tensor sum = zeros({5, 3000}).index_add(0, index, source);
    EXPECT_TRUE(sum.equal(tensor(expected).view({5, 3000}))) << t << " threads";
    const Tensor by_columns = zeros({3000, 5}).index_add(1, index, source.t());
    EXPECT_TRUE(by_columns.equal(sum.t())) << t << " threads";
  }
  set_num_threads(threads);
}

TEST(Cat, PromotesLikeTorchCat) {
  const Tensor out =
      cat(V{tensor({1, 2}).to(kInt32), tensor({1.5f}).to(kBFloat16), tensor({2.f}).to(kFloat16)});
  EXPECT_EQ(out.dtype(), kFloat32);
  EXPECT_EQ(values(out), (std::vector<double>{1, 2, 1.5, 2}));
  EXPECT_EQ(cat(V{zeros({0}, kInt64), tensor({1, 2}).to(kInt32)}).dtype(), kInt64);
}

TEST(Cat, EmptyOneDimensionalInputsAreSkipped) {
  const Tensor out = cat(V{zeros({0}), ones({2, 3}), zeros({0}, kInt64)}, 1);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(cat(V{zeros({0}), zeros({0})}).sizes(), IntArrayRef({0}));
}

TEST(Cat, ErrorsNameTheOffendingTensor) {
  EXPECT_NE(error_of([] { cat(V{}); }).find("non-empty"), std::string::npos);
  const std::string sizes = error_of([] { cat(V{zeros({3, 4}), zeros({2, 5})}); });
  EXPECT_NE(sizes.find("cat"), std::string::npos) << sizes;
  EXPECT_NE(sizes.find("tensor number 1"), std::string::npos) << sizes;
  EXPECT_NE(error_of([] {
              cat(V{zeros({3, 4}), zeros({3})});
            }).find("same number of dimensions"),
            std::string::npos);
  EXPECT_NE(error_of([] { cat(V{scalar_tensor(1.0)}); }).find("zero-dimensional"),
            std::string::npos);
}

TEST(Stack, RequiresEqualSizes) {
  const std::string message = error_of([] { stack(V{zeros({3, 4}), zeros({3, 5})}); });
  EXPECT_NE(message.find("stack"), std::string::npos) << message;
  EXPECT_NE(message.find("[3, 5] at entry 1"), std::string::npos) << message;
  EXPECT_EQ(stack(V{scalar_tensor(1.0), scalar_tensor(2.0)}).sizes(), IntArrayRef({2}));
}

TEST(Split, PiecesAreViewsOfTheInput) {
  const Tensor a = arange(10, kFloat32).view({2, 5});
  const std::vector<Tensor> pieces = a.split(2, 1);
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[2].sizes(), IntArrayRef({2, 1}));
  for (const Tensor& p : pieces) EXPECT_EQ(p.storage(), a.storage());
  EXPECT_EQ(a.split({1, 1}, 0).size(), 2u);
}

// One node for all pieces (as PyTorch's SplitBackward/UnbindBackward): the input's gradient is
// their gradients joined, not a full-size tensor per piece summed.
TEST(Split, PiecesShareOneGradientNode) {
  const Tensor a = randn({4, 6}).requires_grad_();
  const std::vector<Tensor> pieces = a.chunk(3, 1);
  const std::vector<Tensor> rows = a.unbind(0);
  ASSERT_EQ(rows.size(), 4u);
  for (size_t i = 1; i < pieces.size(); ++i) EXPECT_EQ(pieces[i].grad_fn(), pieces[0].grad_fn());
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_EQ(rows[i].grad_fn(), rows[0].grad_fn());
  EXPECT_STREQ(pieces[0].grad_fn()->name(), "split");
  EXPECT_STREQ(rows[0].grad_fn()->name(), "unbind");
  EXPECT_EQ(rows[3].sizes(), IntArrayRef({6}));
  EXPECT_EQ(rows[3].storage(), a.storage());
  (pieces[1].sum() + rows[3].sum() * 2).backward();
  Tensor expected = zeros({4, 6});
  expected.index_put_({Slice(), Slice(2, 4)}, 1.0);  // pieces[1]: columns 2 and 3
  expected.index_put_({3}, expected[3] + 2.0);       // rows[3], twice

  EXPECT_TRUE(equal(a.grad(), expected)) << a.grad();
}

TEST(Unbind, ErrorsNameTheDim) {
  EXPECT_NE(error_of([] { scalar_tensor(1.0).unbind(); }).find("unbind"), std::string::npos);
  EXPECT_NE(error_of([] { zeros({2, 3}).unbind(2); }).find("unbind"), std::string::npos);
  EXPECT_TRUE(zeros({0, 3}).unbind(0).empty());
}

TEST(Split, ErrorsNameSizes) {
  const Tensor a = zeros({3, 4});
  EXPECT_NE(error_of([&] { a.split(0, 0); }).find("split_size"), std::string::npos);
  const std::string sum = error_of([&] { a.split({1, 1}, 0); });
  EXPECT_NE(sum.find("[1, 1]"), std::string::npos) << sum;
  EXPECT_NE(sum.find("sum exactly to 3"), std::string::npos) << sum;
  EXPECT_NE(error_of([&] { a.split({4, -1}, 0); }).find("non-negative"), std::string::npos);
}

TEST(Chunk, PieceCountsFollowPyTorch) {
  auto shapes = [](const std::vector<Tensor>& pieces) {
    std::vector<int64_t> sizes;
    for (const Tensor& p : pieces) sizes.push_back(p.size(0));
    return sizes;
  };
  EXPECT_EQ(shapes(zeros({5}).chunk(3)), (std::vector<int64_t>{2, 2, 1}));
  EXPECT_EQ(shapes(zeros({5}).chunk(4)), (std::vector<int64_t>{2, 2, 1}));
  EXPECT_EQ(shapes(zeros({6}).chunk(4)), (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(shapes(zeros({0}).chunk(3)), (std::vector<int64_t>{0, 0, 0}));
  EXPECT_NE(error_of([] { zeros({3}).chunk(0); }).find("chunk"), std::string::npos);
}

}  // namespace
}  // namespace accel
