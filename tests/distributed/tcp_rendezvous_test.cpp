// The TCP rendezvous over the loopback interface: rank 0 and client threads exchanging the
// payload, a client with nobody listening, a port already taken, something else answering,
// and bad arguments.
#include "accel/distributed/tcp_rendezvous.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>
#include <thread>

#include "support/expect_error.h"

namespace accel::distributed {
namespace {

using namespace std::chrono_literals;
using testing::error_of;
using testing::expect_error_containing;

// A listening IPv4 socket on a port the system picked (closed with the object).
class Listener {
 public:
  Listener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof(address);
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        ::listen(fd_, 4) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      ADD_FAILURE() << "cannot open a listening socket on the loopback interface";
    }
    port_ = ntohs(address.sin_port);
  }
  ~Listener() {
    if (fd_ >= 0) ::close(fd_);
  }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  int fd() const { return fd_; }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// A port nobody listens on (one the system just handed out and took back).
int free_port() { return Listener().port(); }

TEST(TcpRendezvous, EveryRankGetsRankZerosPayload) {
  const int port = free_port();
  const std::vector<uint8_t> payload = {0, 1, 2, 3, 250, 251, 252, 253, 254, 255};
  constexpr int kWorld = 4;
  std::vector<std::future<std::vector<uint8_t>>> clients;
  for (int rank = 1; rank < kWorld; ++rank) {
    // Clients start before rank 0 listens: they retry until it does.
    clients.push_back(std::async(std::launch::async, [=] {
      return tcp_rendezvous_broadcast("127.0.0.1", port, rank, kWorld, {9, 9}, 20s);
    }));
  }
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(tcp_rendezvous_broadcast("127.0.0.1", port, 0, kWorld, payload, 20s), payload);
  for (auto& client : clients) EXPECT_EQ(client.get(), payload);
}

TEST(TcpRendezvous, HostNamesAndEmptyPayloadsWork) {
  const int port = free_port();
  auto client = std::async(std::launch::async, [=] {
    return tcp_rendezvous_broadcast("localhost", port, 1, 2, {}, 20s);
  });
  EXPECT_TRUE(tcp_rendezvous_broadcast("", port, 0, 2, {}, 20s).empty());
  EXPECT_TRUE(client.get().empty());
}

TEST(TcpRendezvous, OneProcessNeedsNoNetwork) {
  // Port 1 would need privileges to listen on: world size 1 must not try.
  EXPECT_EQ(tcp_rendezvous_broadcast("", 1, 0, 1, {7}, 1ms), std::vector<uint8_t>{7});
}

TEST(TcpRendezvous, ClientWithNobodyListeningTimesOut) {
  const int port = free_port();
  const auto start = std::chrono::steady_clock::now();
  const std::string message =
      error_of([&] { tcp_rendezvous_broadcast("127.0.0.1", port, 1, 2, {}, 300ms); });
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_NE(message.find("rank 1 could not reach rank 0 at 127.0.0.1:" + std::to_string(port) +
                         " within 300 ms"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("refused"), std::string::npos) << message;
  EXPECT_GE(elapsed, 300ms);
  EXPECT_LT(elapsed, 10s);
}

TEST(TcpRendezvous, RankZeroWaitingForMissingRanksTimesOut) {
  const int port = free_port();
  auto client = std::async(std::launch::async, [=] {
    return tcp_rendezvous_broadcast("127.0.0.1", port, 2, 3, {}, 20s);
  });
  const std::string message =
      error_of([&] { tcp_rendezvous_broadcast("127.0.0.1", port, 0, 3, {5}, 1s); });
  EXPECT_NE(message.find("only 1 of the 2 other ranks connected (missing: 1)"), std::string::npos)
      << message;
  EXPECT_EQ(client.get(), std::vector<uint8_t>{5});
}

TEST(TcpRendezvous, PortInUseIsAnError) {
  const Listener taken;
  expect_error_containing(
      [&] { tcp_rendezvous_broadcast("127.0.0.1", taken.port(), 0, 2, {}, 1s); },
      "rank 0 cannot listen on port " + std::to_string(taken.port()));
}

TEST(TcpRendezvous, SomethingElseAnsweringIsAnError) {
  const Listener other;
  std::thread answer([&] {
    const int client = ::accept(other.fd(), nullptr, nullptr);
    if (client < 0) return;
    const char reply[] = "HTTP/1.0 400 Bad Request\r\n\r\n";
    (void)::send(client, reply, sizeof(reply) - 1, MSG_NOSIGNAL);
    ::close(client);
  });
  expect_error_containing(
      [&] { tcp_rendezvous_broadcast("127.0.0.1", other.port(), 1, 2, {}, 5s); },
      "is not accel's rank 0");
  answer.join();
}

TEST(TcpRendezvous, BadArgumentsAreErrors) {
  expect_error_containing([] { tcp_rendezvous_broadcast("127.0.0.1", 29500, 2, 2, {}, 1s); },
                          "rank 2 is not a rank of a world of size 2");
  expect_error_containing([] { tcp_rendezvous_broadcast("127.0.0.1", 29500, -1, 2, {}, 1s); },
                          "rank -1 is not a rank of a world of size 2");
  expect_error_containing([] { tcp_rendezvous_broadcast("127.0.0.1", 29500, 0, 0, {}, 1s); },
                          "world_size must be at least 1, got 0");
  expect_error_containing([] { tcp_rendezvous_broadcast("127.0.0.1", 0, 1, 2, {}, 1s); },
                          "port must be in [1, 65535], got 0");
  expect_error_containing([] { tcp_rendezvous_broadcast("127.0.0.1", 65536, 1, 2, {}, 1s); },
                          "port must be in [1, 65535], got 65536");
  expect_error_containing([] { tcp_rendezvous_broadcast("127.0.0.1", 29500, 1, 2, {}, 0ms); },
                          "timeout must be positive");
  expect_error_containing([] { tcp_rendezvous_broadcast("", 29500, 1, 2, {}, 1s); },
                          "rank 1 needs the host of rank 0");
}

}  // namespace
}  // namespace accel::distributed
