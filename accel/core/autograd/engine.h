// The backward pass: runs the recorded graph from the given roots in reverse topological
// order, calling only the nodes on a path to a leaf (or requested input) that needs a
// gradient, and accumulating into leaves' grad() in place.
#pragma once

#include <functional>
#include <vector>

#include "accel/core/tensor.h"

namespace accel::autograd {

// Backpropagates from `roots` (gradients: one per root, or empty for scalar roots).
void backward(TensorList roots, TensorList gradients = {}, bool retain_graph = false);

// The gradients of `outputs` w.r.t. `inputs`, returned instead of accumulated into grad()
// (torch.autograd.grad). An input the outputs do not depend on gets an undefined tensor,
// or an error unless allow_unused.
std::vector<Tensor> grad(TensorList outputs, TensorList inputs, TensorList grad_outputs = {},
                         bool retain_graph = false, bool allow_unused = false);

// Queues `callback` to run once the current backward pass has finished (from inside a hook
// or node while backward runs); data-parallel training flushes gradient buckets this way.
void queue_callback(std::function<void()> callback);

}  // namespace accel::autograd
