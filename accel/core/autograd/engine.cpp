// The backward engine. One pass:
//  1. discover the graph reachable from the roots and mark the nodes that lead to a target
//     (a leaf accumulator for backward(), a requested input for grad()); other nodes never
//     run, and their inputs' gradients are never computed;
//  2. count, for each needed node, the edges from needed nodes into it;
//  3. run ready nodes newest-first (highest sequence number), summing the gradients that
//     arrive for each node's outputs, until none is left;
//  4. run the callbacks queued during the pass.
#include "accel/core/autograd/engine.h"

#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "accel/core/autograd/function.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::autograd {

namespace {

struct NodeState {
  GradVector grads;  // summed gradients of the node's outputs
  int64_t dependencies = 0;
  bool needed = false;
};

// An input of grad(): the edge its gradient arrives on, and where to put it.
struct Capture {
  Edge edge;
  size_t index;
};

struct GraphTask {
  std::vector<std::function<void()>> callbacks;
};
thread_local GraphTask* current_task = nullptr;

class Execution {
 public:
  Execution(bool retain_graph, std::vector<Capture> captures)
      : retain_graph_(retain_graph), captures_(std::move(captures)) {}

  // Returns the captured gradients (one per Capture; empty without captures).
  std::vector<Tensor> run(const std::vector<Edge>& roots, std::vector<Tensor> root_grads) {
    discover(roots);
    for (size_t i = 0; i < roots.size(); ++i) deliver(roots[i], std::move(root_grads[i]));
    std::vector<Tensor> captured(captures_.size());
    for (const Edge& root : roots) {
      NodeState& s = states_[root.node.get()];
      if (s.needed && s.dependencies == 0 && !queued_.count(root.node.get())) push(root.node);
    }
    GraphTask task;
    GraphTask* outer = std::exchange(current_task, &task);
    try {
      while (!ready_.empty()) {
        std::shared_ptr<Node> node = ready_.top().node;
        ready_.pop();
        execute(*node, captured);
      }
    } catch (...) {
      current_task = outer;
      throw;
    }
    current_task = outer;
    for (auto& callback : task.callbacks) callback();
    return captured;
  }

 private:
  struct Ready {
    std::shared_ptr<Node> node;
    bool operator<(const Ready& o) const { return node->sequence_nr() < o.node->sequence_nr(); }
  };

  bool is_target(const Node* node) const {
    if (captures_.empty()) return node->is_accumulator();
    for (const Capture& c : captures_) {
      if (c.edge.node.get() == node) return true;
    }
    return false;
  }

  // Iterative post-order DFS: a node is needed if it is a target or feeds a needed node.
  void discover(const std::vector<Edge>& roots) {
    struct Frame {
      Node* node;
      size_t next_child;
    };
    std::vector<Frame> stack;
    std::unordered_set<Node*> visited;
    for (const Edge& root : roots) {
      if (!visited.insert(root.node.get()).second) continue;
      stack.push_back({root.node.get(), 0});
      while (!stack.empty()) {
        Frame& frame = stack.back();
        if (frame.next_child < frame.node->next_edges.size()) {
          Node* child = frame.node->next_edges[frame.next_child++].node.get();
          if (child != nullptr && visited.insert(child).second) stack.push_back({child, 0});
          continue;
        }
        Node* node = frame.node;
        stack.pop_back();
        NodeState& state = states_[node];
        state.needed = is_target(node);
        for (const Edge& edge : node->next_edges) {
          if (edge.node && states_[edge.node.get()].needed) state.needed = true;
        }
      }
    }
    for (auto& [node, state] : states_) {
      if (!state.needed || stops_at(node)) continue;
      for (const Edge& edge : node->next_edges) {
        if (edge.node && states_[edge.node.get()].needed) states_[edge.node.get()].dependencies++;
      }
    }
  }

  // A captured accumulator is not run: grad() returns gradients instead of accumulating.
  bool stops_at(const Node* node) const { return !captures_.empty() && node->is_accumulator(); }

  void deliver(const Edge& edge, Tensor grad) {
    NodeState& state = states_[edge.node.get()];
    if (state.grads.size() < edge.node->num_outputs) state.grads.resize(edge.node->num_outputs);
    Tensor& slot = state.grads[edge.input_nr];
    if (!grad.defined()) return;
    slot = slot.defined() ? slot + grad : std::move(grad);
  }

  void push(const std::shared_ptr<Node>& node) {
    queued_.insert(node.get());
    ready_.push({node});
  }

  void execute(Node& node, std::vector<Tensor>& captured) {
    NodeState& state = states_[&node];
    GradVector grads = std::move(state.grads);
    grads.resize(node.num_outputs);
    for (auto& [output_nr, hook] : node.output_hooks) {
      if (!grads[output_nr].defined()) continue;
      Tensor replaced = hook(grads[output_nr]);
      if (replaced.defined()) grads[output_nr] = std::move(replaced);
    }
    for (const Capture& c : captures_) {
      if (c.edge.node.get() == &node) captured[c.index] = grads[c.edge.input_nr];
    }
    if (stops_at(&node)) return;

    GradInputs inputs(node.next_edges.size());
    for (size_t i = 0; i < node.next_edges.size(); ++i) {
      const Edge& edge = node.next_edges[i];
      inputs.set_needed(i, edge.node && states_[edge.node.get()].needed);
    }
    bool any_grad = false;
    for (const Tensor& g : grads) any_grad = any_grad || g.defined();
    if (any_grad) {
      try {
        node.apply(grads, inputs);
      } catch (const SavedTensorModified& e) {
        fail(node.name(), "{}", e.what());
      }
    }
    if (!retain_graph_) node.release_saved();

    for (size_t i = 0; i < node.next_edges.size(); ++i) {
      if (!inputs.needs(i)) continue;
      const Edge& edge = node.next_edges[i];
      if (any_grad) deliver(edge, std::move(inputs[i]));
      if (--states_[edge.node.get()].dependencies == 0) push(edge.node);
    }
  }

  bool retain_graph_;
  std::vector<Capture> captures_;
  std::unordered_map<Node*, NodeState> states_;
  std::unordered_set<Node*> queued_;
  std::priority_queue<Ready> ready_;
};

// The root edges and their initial gradients (ones for scalar roots).
std::pair<std::vector<Edge>, std::vector<Tensor>> root_edges(TensorList roots,
                                                             TensorList gradients) {
  ACCEL_CHECK(gradients.empty() || gradients.size() == roots.size(), "backward",
              "got {} gradients for {} tensors", gradients.size(), roots.size());
  std::vector<Edge> edges;
  std::vector<Tensor> grads;
  for (size_t i = 0; i < roots.size(); ++i) {
    const Tensor& root = roots[i];
    ACCEL_CHECK(root.defined(), "backward", "tensor {} is undefined", i);
    Edge edge = gradient_edge(root);
    ACCEL_CHECK(edge.is_valid(), "backward",
                "tensor {} (shape {}) does not require grad and has no grad_fn", i, root.sizes());
    Tensor grad = gradients.empty() ? Tensor() : gradients[i];
    if (!grad.defined()) {
      ACCEL_CHECK(root.numel() == 1, "backward",
                  "grad can be implicitly created only for scalar outputs, but the output has "
                  "shape {}; pass a gradient of that shape",
                  root.sizes());
      grad = ones_like(root);
    } else {
      ACCEL_CHECK(grad.sizes() == root.sizes(), "backward",
                  "gradient of shape {} does not match the output's shape {}", grad.sizes(),
                  root.sizes());
    }
    edges.push_back(std::move(edge));
    grads.push_back(std::move(grad));
  }
  return {std::move(edges), std::move(grads)};
}

}  // namespace

void backward(TensorList roots, TensorList gradients, bool retain_graph) {
  auto [edges, grads] = root_edges(roots, gradients);
  NoGradGuard no_grad;
  Execution(retain_graph, {}).run(edges, std::move(grads));
}

std::vector<Tensor> grad(TensorList outputs, TensorList inputs, TensorList grad_outputs,
                         bool retain_graph, bool allow_unused) {
  auto [edges, grads] = root_edges(outputs, grad_outputs);
  std::vector<Capture> captures;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Edge edge = gradient_edge(inputs[i]);
    ACCEL_CHECK(edge.is_valid(), "grad", "input {} (shape {}) does not require grad", i,
                inputs[i].sizes());
    captures.push_back({std::move(edge), i});
  }
  NoGradGuard no_grad;
  std::vector<Tensor> result = Execution(retain_graph, captures).run(edges, std::move(grads));
  for (size_t i = 0; i < result.size(); ++i) {
    ACCEL_CHECK(allow_unused || result[i].defined(), "grad",
                "input {} (shape {}) was not used to compute the outputs; pass allow_unused=true "
                "to get an undefined gradient for it",
                i, inputs[i].sizes());
  }
  return result;
}

void queue_callback(std::function<void()> callback) {
  ACCEL_CHECK(current_task != nullptr, "queue_callback",
              "callbacks can only be queued while a backward pass runs");
  current_task->callbacks.push_back(std::move(callback));
}

}  // namespace accel::autograd
