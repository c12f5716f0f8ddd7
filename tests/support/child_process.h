// run_in_child and kill_child_after: run a function in a forked child and report how the child
// ended. The tests of crash consistency kill savers midway, and the tests of full disks and
// read-only mounts change resource limits or mount namespaces that must not leak into the test
// process.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <utility>

namespace accel::testing {

struct ChildResult {
  bool exited = false;  // by returning; otherwise a signal ended it
  int exit_code = -1;
  int signal = 0;
  std::string message;  // what the child put in its message
};

// Exit code of a child whose function threw; the message holds what().
inline constexpr int kChildThrew = 101;

// Waits for the child `pid` to end and says how it did.
inline ChildResult reap_child(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildResult result;
  result.exited = WIFEXITED(status);
  result.exit_code = result.exited ? WEXITSTATUS(status) : -1;
  result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return result;
}

inline void write_all(int fd, const std::string& text) {
  const char* data = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written <= 0) break;
    data += written;
    left -= static_cast<size_t>(written);
  }
}

// Runs fn(message) in a child process; its return value is the child's exit code. The child
// ends with _exit: no destructors, atexit handlers or test-framework reports of its own.
inline ChildResult run_in_child(const std::function<int(std::string& message)>& fn) {
  std::fflush(nullptr);
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return {};
  const pid_t pid = ::fork();
  if (pid < 0) return {};
  if (pid == 0) {
    ::close(pipe_fds[0]);
    std::string message;
    int code = 0;
    try {
      code = fn(message);
    } catch (const std::exception& e) {
      message = e.what();
      code = kChildThrew;
    }
    write_all(pipe_fds[1], message);
    ::_exit(code);
  }
  ::close(pipe_fds[1]);
  std::string message;
  char buffer[4096];
  ssize_t got = 0;
  while ((got = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0) {
    message.append(buffer, static_cast<size_t>(got));
  }
  ::close(pipe_fds[0]);
  ChildResult result = reap_child(pid);
  result.message = std::move(message);
  return result;
}

// Runs fn() in a child process and sends it SIGKILL `delay` after fn starts, as an OOM killer or
// a preemption would: result.exited says fn finished first (exit code 0, or kChildThrew).
// The child should only do what is safe after fork (no threads of the parent's thread pools).
inline ChildResult kill_child_after(const std::function<void()>& fn,
                                    std::chrono::microseconds delay) {
  std::fflush(nullptr);
  int started[2];
  if (::pipe(started) != 0) return {};
  const pid_t pid = ::fork();
  if (pid < 0) return {};
  if (pid == 0) {
    ::close(started[0]);
    write_all(started[1], "s");
    int code = 0;
    try {
      fn();
    } catch (const std::exception&) {
      code = kChildThrew;
    }
    ::_exit(code);
  }
  ::close(started[1]);
  char byte;
  while (::read(started[0], &byte, 1) < 0 && errno == EINTR) {
  }
  ::close(started[0]);
  std::this_thread::sleep_for(delay);
  ::kill(pid, SIGKILL);
  return reap_child(pid);
}

}  // namespace accel::testing
