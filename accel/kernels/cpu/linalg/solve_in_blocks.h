// Triangular solves of many right-hand sides a block of rows at a time: each diagonal block by
// substitution, the rows still to solve updated by accel's GEMM; the right-hand sides are cut
// into fixed parts that threads share, so the bits do not depend on the thread count. lu_solve
// and triangular_solve share it for systems above a small size.
#pragma once

#include <cstdint>

namespace accel::cpu::linalg {

// A triangular system: op(A) with op(A) = Aᵀ when `transpose`, A n x n row-major (row stride
// lda), of which only op(A)'s lower triangle (`lower`) or upper one is read, and not its
// diagonal when `unit_diagonal`.
template <typename T>
struct Triangle {
  const T* a;
  int64_t n, lda;
  bool transpose, lower, unit_diagonal;
};

// b (n x k, row-major, row stride ldb) becomes op(A)⁻¹ b.
template <typename T>
void solve_in_blocks(const Triangle<T>& triangle, T* b, int64_t k, int64_t ldb);

}  // namespace accel::cpu::linalg
