// MpiRuntime: MPI's life in this process. Started by the first MPI process group (thread level
// "multiple": each group's worker thread calls MPI while the program may abort from another);
// at exit every process meets the others at a barrier of its own before MPI_Finalize, and a
// process the others do not meet within the timeout aborts the job instead of waiting forever.
#pragma once

#include <mpi.h>

#include <chrono>
#include <string_view>

namespace accel::distributed::mpi {

// Starts MPI once per process (a program that started MPI itself keeps finalizing it).
// `exit_timeout` bounds the wait for the other processes at exit (the longest of the values
// given wins).
void start(std::chrono::milliseconds exit_timeout);
bool is_finalized();

// Throws accel::Error "op (MPI): <MPI's message>" unless `status` is MPI_SUCCESS.
void check(int status, std::string_view op);

// Ends the job: every process exits with `exit_code` (MPI_Abort).
[[noreturn]] void abort_job(int exit_code);

// The reduction MPI applies for ReduceOp `op` on 16-bit floats (MPI has no such types; they
// travel as MPI_UINT16_T). Valid after start().
enum class Float16Kind { Half, BFloat16 };
MPI_Op float16_op(Float16Kind kind, int op_index);

}  // namespace accel::distributed::mpi
