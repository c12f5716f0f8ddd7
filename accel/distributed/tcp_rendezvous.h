// A one-shot TCP rendezvous: rank 0 hands a few bytes to every other process of a launch that
// has no MPI (torchrun's MASTER_ADDR and MASTER_PORT say where rank 0 listens). The NCCL
// backend shares its communicator's id this way. Plain POSIX sockets over IPv4, CPU only.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace accel::distributed {

// Rank 0 listens on `port` (every interface) until the world_size - 1 other ranks have
// connected and received `payload_of_rank0`, which it returns; the others connect to
// host:port, retrying until it answers, and return what rank 0 sent (their own
// payload_of_rank0 is ignored). One process (world_size 1) needs no network. Throws
// accel::Error naming host, port and what went wrong: bad arguments, a port rank 0 cannot
// listen on, something else answering there, a connection cut short, or `timeout` passing
// before the exchange is done.
std::vector<uint8_t> tcp_rendezvous_broadcast(const std::string& host, int port, int rank,
                                              int world_size, std::vector<uint8_t> payload_of_rank0,
                                              std::chrono::milliseconds timeout);

}  // namespace accel::distributed
