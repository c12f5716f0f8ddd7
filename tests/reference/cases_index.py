"""Reference cases for indexing and joining ops (tests/core/ops_index_test.cpp)."""
import torch

from op_case import Case, S


def weighted_join(pieces, dim):
    """Joins split pieces scaled by 1, 2, ...: each piece's gradient differs from the others'."""
    return torch.cat([p * (i + 1) for i, p in enumerate(pieces)], dim)


def weighted_stack(pieces, dim):
    """Stacks unbound pieces scaled by 1, 2, ..., as weighted_join does for split."""
    return torch.stack([p * (i + 1) for i, p in enumerate(pieces)], dim)


CASES = {
    "index_select": Case(lambda a, i: torch.index_select(a, 0, i),
                         [S(4, 3), S(5, domain="int:0:4")]),
    "index_select_dim1": Case(lambda a, i: a.index_select(1, i), [S(3, 5), S(4, domain="int:0:5")]),
    "index_select_negative_dim": Case(lambda a, i: a.index_select(-1, i),
                                      [S(2, 3, 4), S(6, domain="int:0:4")]),
    "index_select_int32": Case(lambda a, i: a.index_select(0, i.int()),
                               [S(4, 2), S(3, domain="int:0:4")]),
    "index_select_transposed": Case(lambda a, i: a.t().index_select(0, i),
                                    [S(3, 4), S(5, domain="int:0:4")]),
    "gather": Case(lambda a, i: torch.gather(a, 1, i), [S(3, 4), S(3, 5, domain="int:0:4")]),
    "gather_dim0": Case(lambda a, i: a.gather(0, i), [S(4, 3), S(2, 3, domain="int:0:4")]),
    "gather_smaller_index": Case(lambda a, i: a.gather(1, i),
                                 [S(3, 4, 2), S(2, 3, 1, domain="int:0:4")]),
    "gather_negative_dim": Case(lambda a, i: a.gather(-1, i), [S(2, 3), S(2, 4, domain="int:0:3")]),
    "scatter_add": Case(lambda a, i, s: torch.scatter_add(a, 1, i, s),
                        [S(3, 4), S(3, 5, domain="int:0:4"), S(3, 5)]),
    "scatter_add_dim0": Case(lambda a, i, s: a.scatter_add(0, i, s),
                             [S(4, 3), S(6, 3, domain="int:0:4"), S(6, 3)]),
    "scatter_add_partial": Case(lambda a, i, s: a.scatter_add(1, i, s),
                                [S(4, 4), S(2, 3, domain="int:0:4"), S(2, 3)]),
    "cat": Case(lambda a, b, c: torch.cat([a, b, c]), [S(2, 3), S(4, 3), S(1, 3)]),
    "cat_dim1": Case(lambda a, b: torch.cat([a, b], 1), [S(2, 3), S(2, 1)]),
    "cat_negative_dim": Case(lambda a, b: torch.cat([a, b], -1), [S(2, 2, 3), S(2, 2, 2)]),
    "cat_skips_empty_1d": Case(lambda e, a, b: torch.cat([e, a, b], 1), [S(0), S(2, 3), S(2, 2)]),
    "cat_promotes": Case(lambda a, b: torch.cat([a, b]), [S(2, 2), S(3, 2, domain="int:0:5")]),
    "cat_non_contiguous": Case(lambda a, b: torch.cat([a.t(), b], 0), [S(3, 2), S(1, 3)]),
    "stack": Case(lambda a, b, c: torch.stack([a, b, c]), [S(2, 3), S(2, 3), S(2, 3)]),
    "stack_dim1": Case(lambda a, b: torch.stack([a, b], 1), [S(2, 3), S(2, 3)]),
    "stack_negative_dim": Case(lambda a, b: torch.stack([a, b], -1), [S(2, 3), S(2, 3)]),
    "split": Case(lambda a: weighted_join(a.split(2, 1), 1), [S(3, 5)]),
    "split_sizes": Case(lambda a: weighted_join(a.split([1, 3, 2], 0), 0), [S(6, 2)]),
    "chunk": Case(lambda a: weighted_join(a.chunk(3, 1), 1), [S(2, 7)]),
    "chunk_fewer": Case(lambda a: weighted_join(a.chunk(4, -2), 0), [S(6, 2)]),
    # Tensor::index / index_put_ (Python's x[...]); appended last so the cases above keep
    # their random draws.
    "index_basic": Case(lambda a: a[1:, None, ..., -1], [S(3, 2, 4)]),
    "index_tensor": Case(lambda a, i: a[:, i], [S(3, 4), S(2, 3, domain="int:0:4")]),
    "index_tensors_apart": Case(lambda a, i, j: a[i, :, j],
                                [S(3, 2, 4), S(2, 1, domain="int:0:3"), S(3, domain="int:0:4")]),
    "index_mask": Case(lambda a: a[a > 0], [S(3, 4)]),
    "index_put": Case(lambda a, v: a.index_put((torch.tensor([2, 0]),), v), [S(3, 2), S(2, 2)]),
    "index_put_accumulate": Case(lambda a, i, v: a.index_put((i,), v, accumulate=True),
                                 [S(3, 2), S(4, domain="int:0:3"), S(4, 2)]),
    "masked_select": Case(lambda a: torch.masked_select(a, a.sum(1, keepdim=True) > 0),
                          [S(4, 3)]),
    "unbind": Case(lambda a: weighted_stack(a.unbind(), 0), [S(3, 4)]),
    "unbind_dim1": Case(lambda a: weighted_stack(a.unbind(1), 1), [S(2, 3, 2)]),
    # Pieces whose gradient never flows get zeros in the input's gradient.
    "split_partly_used": Case(lambda a: torch.cat([(p * (i + 1)) for i, p in
                                                   enumerate(a.split(2, 1)) if i != 1], 1),
                              [S(3, 6)]),
    "unbind_partly_used": Case(lambda a: a.unbind(0)[1] * 3, [S(3, 4)]),
}
