// The TCP rendezvous: rank 0 accepts one connection per other rank and answers each with the
// payload. Every exchange starts with a fixed tag, so a client that reaches some other program
// says so instead of reading garbage. Waits are bounded by poll() against one deadline.
#include "accel/distributed/tcp_rendezvous.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>
#include <thread>
#include <utility>

#include "accel/base/error.h"

namespace accel::distributed {
namespace {

constexpr const char* kOp = "distributed::tcp_rendezvous_broadcast";
constexpr std::array<uint8_t, 8> kTag = {'a', 'c', 'c', 'e', 'l', 'r', 'd', '1'};
constexpr size_t kMaxPayload = size_t{1} << 20;
// How long rank 0 gives a connection to say which rank it is before dropping it (a stray
// connection must not hold up the real ones).
constexpr std::chrono::milliseconds kHelloWait{10000};

using Clock = std::chrono::steady_clock;

std::string last_system_error() { return std::strerror(errno); }

class Socket {
 public:
  explicit Socket(int fd = -1) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(Socket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Socket& operator=(Socket&& other) noexcept {
    if (this != &other) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  int fd() const { return fd_; }

 private:
  int fd_;
};

int milliseconds_until(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::max<int64_t>(0, std::min<int64_t>(left.count(), 1 << 30)));
}

// Waits until `fd` is ready for `events`; false when the deadline passed first.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  while (true) {
    pollfd entry{fd, events, 0};
    const int ready = ::poll(&entry, 1, milliseconds_until(deadline));
    if (ready > 0) return true;
    if (ready == 0) return false;
    if (errno != EINTR) return false;
  }
}

// Outcome of moving a fixed number of bytes.
enum class Transfer { Done, TimedOut, Closed, Failed };

Transfer read_exact(int fd, uint8_t* data, size_t size, Clock::time_point deadline) {
  size_t done = 0;
  while (done < size) {
    if (!wait_for(fd, POLLIN, deadline)) return Transfer::TimedOut;
    const ssize_t got = ::recv(fd, data + done, size - done, 0);
    if (got == 0) return Transfer::Closed;
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return Transfer::Failed;
    }
    done += static_cast<size_t>(got);
  }
  return Transfer::Done;
}

Transfer write_all(int fd, const uint8_t* data, size_t size, Clock::time_point deadline) {
  size_t done = 0;
  while (done < size) {
    if (!wait_for(fd, POLLOUT, deadline)) return Transfer::TimedOut;
    const ssize_t sent = ::send(fd, data + done, size - done, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return Transfer::Failed;
    }
    done += static_cast<size_t>(sent);
  }
  return Transfer::Done;
}

std::string_view describe(Transfer outcome) {
  switch (outcome) {
    case Transfer::Done:
      return "done";
    case Transfer::TimedOut:
      return "timed out";
    case Transfer::Closed:
      return "the other side closed the connection";
    case Transfer::Failed:
      return "the connection failed";
  }
  return "?";
}

void put_u32(uint8_t* out, uint32_t value) {
  const uint32_t network = htonl(value);
  std::memcpy(out, &network, 4);
}

uint32_t get_u32(const uint8_t* in) {
  uint32_t network = 0;
  std::memcpy(&network, in, 4);
  return ntohl(network);
}

// What a client sends: the tag and its rank.
using Hello = std::array<uint8_t, kTag.size() + 4>;
// What rank 0 answers before the payload: the tag and the payload's length.
using Header = std::array<uint8_t, kTag.size() + 4>;

std::vector<uint8_t> serve(int port, int world_size, const std::vector<uint8_t>& payload,
                           std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  Socket listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  ACCEL_CHECK(listener.fd() >= 0, kOp, "rank 0 cannot create a socket: {}", last_system_error());
  const int yes = 1;
  ::setsockopt(listener.fd(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  address.sin_port = htons(static_cast<uint16_t>(port));
  ACCEL_CHECK(
      ::bind(listener.fd(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0, kOp,
      "rank 0 cannot listen on port {}: {} (another program, or an earlier run, may "
      "hold it: pick another MASTER_PORT)",
      port, last_system_error());
  ACCEL_CHECK(::listen(listener.fd(), world_size) == 0, kOp, "rank 0 cannot listen on port {}: {}",
              port, last_system_error());

  Header header{};
  std::copy(kTag.begin(), kTag.end(), header.begin());
  put_u32(header.data() + kTag.size(), static_cast<uint32_t>(payload.size()));
  std::vector<bool> served(static_cast<size_t>(world_size), false);
  for (int joined = 0; joined < world_size - 1;) {
    if (!wait_for(listener.fd(), POLLIN, deadline)) {
      std::string missing;
      for (int r = 1; r < world_size; ++r) {
        if (!served[static_cast<size_t>(r)])
          missing += (missing.empty() ? "" : ", ") + std::to_string(r);
      }
      fail(kOp,
           "rank 0 listened on port {} for {} ms but only {} of the {} other ranks connected "
           "(missing: {})",
           port, timeout.count(), joined, world_size - 1, missing);
    }
    Socket client(::accept4(listener.fd(), nullptr, nullptr, SOCK_CLOEXEC));
    if (client.fd() < 0) continue;  // the connection went away before it was accepted
    Hello hello{};
    const auto hello_deadline = std::min(deadline, Clock::now() + kHelloWait);
    if (read_exact(client.fd(), hello.data(), hello.size(), hello_deadline) != Transfer::Done ||
        !std::equal(kTag.begin(), kTag.end(), hello.begin())) {
      continue;  // not one of ours: drop it and go on waiting
    }
    const uint32_t rank = get_u32(hello.data() + kTag.size());
    ACCEL_CHECK(rank >= 1 && rank < static_cast<uint32_t>(world_size), kOp,
                "rank 0 (port {}, world size {}) was reached by a process that says it is rank {}: "
                "the processes disagree on the world size",
                port, world_size, rank);
    ACCEL_CHECK(!served[rank], kOp,
                "rank 0 (port {}) was reached twice by processes that say they are rank {}", port,
                rank);
    const Transfer sent_header = write_all(client.fd(), header.data(), header.size(), deadline);
    const Transfer sent = sent_header == Transfer::Done
                              ? write_all(client.fd(), payload.data(), payload.size(), deadline)
                              : sent_header;
    ACCEL_CHECK(sent == Transfer::Done, kOp, "rank 0 (port {}) could not send to rank {}: {}", port,
                rank, describe(sent));
    served[rank] = true;
    ++joined;
  }
  return payload;
}

// A connection to host:port, or an invalid socket with `error` saying why (then retried).
Socket try_connect(const std::string& host, int port, Clock::time_point deadline,
                   std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int status = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
      status != 0) {
    error = fmt::format("cannot resolve the host: {}", ::gai_strerror(status));
    return Socket();
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, ::freeaddrinfo);
  Socket socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (socket.fd() < 0) {
    error = "cannot create a socket: " + last_system_error();
    return Socket();
  }
  if (::connect(socket.fd(), found->ai_addr, found->ai_addrlen) == 0) return socket;
  if (errno != EINPROGRESS) {
    error = last_system_error();
    return Socket();
  }
  if (!wait_for(socket.fd(), POLLOUT, deadline)) {
    error = "the connection attempt timed out";
    return Socket();
  }
  int status = 0;
  socklen_t length = sizeof(status);
  ::getsockopt(socket.fd(), SOL_SOCKET, SO_ERROR, &status, &length);
  if (status != 0) {
    error = std::strerror(status);
    return Socket();
  }
  return socket;
}

std::vector<uint8_t> receive(const std::string& host, int port, int rank,
                             std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::string error;
  Socket socket;
  while (true) {
    socket = try_connect(host, port, deadline, error);
    if (socket.fd() >= 0) break;
    ACCEL_CHECK(Clock::now() < deadline, kOp,
                "rank {} could not reach rank 0 at {}:{} within {} ms (last attempt: {})", rank,
                host, port, timeout.count(), error);
    std::this_thread::sleep_for(std::min(std::chrono::milliseconds(50),
                                         std::chrono::milliseconds(milliseconds_until(deadline))));
  }
  Hello hello{};
  std::copy(kTag.begin(), kTag.end(), hello.begin());
  put_u32(hello.data() + kTag.size(), static_cast<uint32_t>(rank));
  const Transfer said = write_all(socket.fd(), hello.data(), hello.size(), deadline);
  ACCEL_CHECK(said == Transfer::Done, kOp, "rank {} could not write to {}:{}: {}", rank, host, port,
              describe(said));
  Header header{};
  const Transfer heard = read_exact(socket.fd(), header.data(), header.size(), deadline);
  ACCEL_CHECK(heard == Transfer::Done, kOp,
              "rank {} connected to {}:{} but got no answer from rank 0: {}", rank, host, port,
              describe(heard));
  ACCEL_CHECK(std::equal(kTag.begin(), kTag.end(), header.begin()), kOp,
              "rank {} connected to {}:{} but what answers there is not accel's rank 0 (another "
              "program holds the port?)",
              rank, host, port);
  const uint32_t size = get_u32(header.data() + kTag.size());
  ACCEL_CHECK(size <= kMaxPayload, kOp,
              "rank 0 at {}:{} announced {} bytes, more than the {} allowed", host, port, size,
              kMaxPayload);
  std::vector<uint8_t> payload(size);
  const Transfer got = read_exact(socket.fd(), payload.data(), payload.size(), deadline);
  ACCEL_CHECK(got == Transfer::Done, kOp,
              "rank {} received only part of the {} bytes rank 0 at {}:{} sent: {}", rank, size,
              host, port, describe(got));
  return payload;
}

}  // namespace

std::vector<uint8_t> tcp_rendezvous_broadcast(const std::string& host, int port, int rank,
                                              int world_size, std::vector<uint8_t> payload_of_rank0,
                                              std::chrono::milliseconds timeout) {
  ACCEL_CHECK(world_size >= 1, kOp, "world_size must be at least 1, got {}", world_size);
  ACCEL_CHECK(rank >= 0 && rank < world_size, kOp, "rank {} is not a rank of a world of size {}",
              rank, world_size);
  ACCEL_CHECK(port >= 1 && port <= 65535, kOp, "port must be in [1, 65535], got {} (host {})", port,
              host);
  ACCEL_CHECK(timeout.count() > 0, kOp, "timeout must be positive, got {} ms", timeout.count());
  if (world_size == 1) return payload_of_rank0;
  if (rank == 0) {
    ACCEL_CHECK(payload_of_rank0.size() <= kMaxPayload, kOp,
                "the payload is {} bytes; at most {} are allowed", payload_of_rank0.size(),
                kMaxPayload);
    return serve(port, world_size, payload_of_rank0, timeout);
  }
  ACCEL_CHECK(!host.empty(), kOp, "rank {} needs the host of rank 0 (MASTER_ADDR), got none", rank);
  return receive(host, port, rank, timeout);
}

}  // namespace accel::distributed
