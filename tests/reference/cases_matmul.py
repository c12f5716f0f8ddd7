"""Reference cases for matmul, mm and bmm (tests/core/ops_matmul_test.cpp)."""
import torch

from op_case import Case, S

CASES = {
    "dot": Case(torch.matmul, [S(4), S(4)]),
    "matrix_vector": Case(torch.matmul, [S(3, 4), S(4)]),
    "vector_matrix": Case(torch.matmul, [S(4), S(4, 3)]),
    "matrix_matrix": Case(torch.matmul, [S(3, 4), S(4, 5)]),
    "batched_matrix": Case(torch.matmul, [S(2, 3, 4), S(4, 5)]),
    "batched_vector": Case(torch.matmul, [S(2, 3, 4), S(4)]),
    "vector_batched": Case(torch.matmul, [S(4), S(2, 4, 3)]),
    "matrix_batched": Case(torch.matmul, [S(3, 4), S(2, 4, 5)]),
    "batched_batched": Case(torch.matmul, [S(2, 3, 4), S(2, 4, 5)]),
    "broadcast_batch": Case(torch.matmul, [S(2, 1, 3, 4), S(3, 4, 2)]),
    "broadcast_both": Case(torch.matmul, [S(2, 1, 3, 4), S(1, 3, 4, 2)]),
    "transposed_operands": Case(lambda a, b: a.t() @ b.t(), [S(4, 3), S(5, 4)]),
    "batched_transposed": Case(lambda a, b: a.transpose(-1, -2) @ b, [S(2, 4, 3), S(2, 4, 5)]),
    "strided_operand": Case(lambda a, b: a[:, ::2] @ b, [S(3, 8), S(4, 2)]),
    "expanded_operand": Case(lambda a, b: a.expand(3, 4) @ b, [S(1, 4), S(4, 2)]),
    "mm": Case(torch.mm, [S(2, 3), S(3, 4)]),
    "mm_transposed": Case(lambda a, b: torch.mm(a, b.t()), [S(5, 3), S(4, 3)]),
    "bmm": Case(torch.bmm, [S(3, 2, 4), S(3, 4, 2)]),
    "integer_matmul": Case(torch.matmul, [S(3, 4, domain="int:-5:5"), S(4, 2, domain="int:-5:5")],
                           grad=False),
}
