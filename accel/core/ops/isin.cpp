// isin: whether each element equals some test element. The test elements are sorted once and
// each element looks up its insertion position there (searchsorted); it is present when the
// test element at that position equals it: O((n + m) log(n + m)), not an n x m comparison.
#include "accel/core/ops/op_support.h"

namespace accel {

Tensor isin(const Tensor& elements, const Tensor& test_elements, bool /*assume_unique*/,
            bool invert) {
  constexpr const char* op = "isin";
  ACCEL_CHECK(elements.defined() && test_elements.defined(), op, "a tensor is undefined");
  ACCEL_CHECK(elements.dtype() != kBool && test_elements.dtype() != kBool, op,
              "bool tensors are not supported (elements {}, test elements {})", elements.dtype(),
              test_elements.dtype());
  check_same_device(elements, test_elements, op);
  NoGradGuard bool_result;
  const ScalarType common = promote_types(elements.dtype(), test_elements.dtype());
  const Tensor values = elements.to(common);
  const Tensor tests = std::get<0>(sort(test_elements.to(common).reshape({-1})));
  const int64_t n = tests.numel();
  Tensor found = zeros(elements.sizes(), TensorOptions(kBool).device(elements.device()));
  if (n > 0) {
    const Tensor position = searchsorted(tests, values).reshape({-1});
    const Tensor candidate = tests.index_select(0, clamp(position, std::nullopt, n - 1));
    found =
        logical_and(lt(position, n), eq(candidate, values.reshape({-1}))).reshape(elements.sizes());
  }
  return invert ? logical_not(found) : found;
}

Tensor isin(const Tensor& elements, const Scalar& test_element, bool assume_unique, bool invert) {
  ACCEL_CHECK(elements.defined(), "isin", "the elements are undefined");
  const Tensor test = scalar_tensor(
      test_element, TensorOptions(result_type(elements, test_element)).device(elements.device()));
  return isin(elements, test, assume_unique, invert);
}

Tensor isin(const Scalar& element, const Tensor& test_elements, bool assume_unique, bool invert) {
  ACCEL_CHECK(test_elements.defined(), "isin", "the test elements are undefined");
  const Tensor value = scalar_tensor(
      element, TensorOptions(result_type(test_elements, element)).device(test_elements.device()));
  return isin(value, test_elements, assume_unique, invert);
}

}  // namespace accel
