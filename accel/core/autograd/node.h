// Node: one recorded op in the autograd graph. It maps the gradients of the op's outputs to
// the gradients of its inputs, and has one edge per input: to the node that produced that
// input (or to a leaf's gradient accumulator), or a null edge where no gradient is needed.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "accel/base/small_vector.h"
#include "accel/core/tensor.h"

namespace accel::autograd {

class Node;

struct Edge {
  std::shared_ptr<Node> node;  // null: this input needs no gradient
  uint32_t input_nr = 0;       // which output of `node` the input was
  bool is_valid() const { return node != nullptr; }
};

using GradVector = SmallVector<Tensor, 2>;

// The gradients a backward function produces, one slot per op input. needs(i) is false
// when no leaf depends on input i; the function should then skip computing it.
class GradInputs {
 public:
  explicit GradInputs(size_t n) : grads_(n), needed_(n, 0) {}
  bool needs(size_t i) const { return needed_[i] != 0; }
  void set_needed(size_t i, bool needed) { needed_[i] = needed ? 1 : 0; }
  Tensor& operator[](size_t i) { return grads_[i]; }
  size_t size() const { return grads_.size(); }

 private:
  GradVector grads_;
  SmallVector<int64_t, 2> needed_;
};

class Node {
 public:
  explicit Node(const char* name);
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const char* name() const { return name_; }
  uint64_t sequence_nr() const { return sequence_nr_; }

  // grad_outputs has one entry per output of the op (undefined where none flowed back).
  virtual void apply(GradVector& grad_outputs, GradInputs& grad_inputs) = 0;
  // Frees the tensors saved for backward (after a backward without retain_graph).
  virtual void release_saved() {}
  virtual bool is_accumulator() const { return false; }

  SmallVector<Edge, 2> next_edges;
  uint32_t num_outputs = 1;
  // Hooks registered on the op's outputs: (output_nr, hook), run before apply.
  std::vector<std::pair<uint32_t, TensorHook>> output_hooks;

 private:
  const char* name_;
  uint64_t sequence_nr_;
};

// Where a leaf's gradients are summed into leaf.grad() — in place once grad() exists, so
// gradients may live in preallocated buffers.
class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(const std::shared_ptr<TensorImpl>& leaf);
  void apply(GradVector& grad_outputs, GradInputs& grad_inputs) override;
  bool is_accumulator() const override { return true; }
  std::shared_ptr<TensorImpl> leaf() const { return leaf_.lock(); }

 private:
  std::weak_ptr<TensorImpl> leaf_;  // weak: the leaf owns its accumulator, not the reverse
};

}  // namespace accel::autograd
