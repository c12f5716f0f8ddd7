// Atomic files and directories under hostile conditions: a save killed at any point leaves the
// old state or the new one, whole; temporaries of killed writers are removed by the next save
// (only those of dead processes, only names of the exact pattern, never through symbolic links);
// a read-only directory or a full disk is a clear error that leaves the previous state intact
// and no temporary behind.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "accel/core/factories.h"
#include "accel/core/io/atomic_directory.h"
#include "accel/core/io/atomic_file.h"
#include "accel/core/io/safetensors.h"
#include "support/child_process.h"
#include "support/expect_error.h"

namespace accel {
namespace {

namespace fs = std::filesystem;
using Files = std::map<std::string, std::string>;

// A child's exit code for "this machine does not allow the setup": the test skips.
constexpr int kCannotSetUp = 77;

std::string fresh_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "accel_atomic_io_" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The names in a directory.
std::set<std::string> listing(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename());
  return names;
}

// The regular files of a directory, by name.
Files contents(const std::string& dir) {
  Files files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    files[entry.path().filename()] = read_text(entry.path());
  }
  return files;
}

void save_directory(const std::string& path, const Files& files) {
  io::AtomicDirectoryWriter writer(path);
  for (const auto& [name, text] : files) {
    io::AtomicFileWriter file(writer.file(name));
    file.write(text.data(), text.size());
    file.commit();
  }
  writer.commit();
}

// The id of a process that has ended and been reaped, so that no process has it now.
pid_t dead_pid() {
  while (true) {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (::kill(pid, 0) == -1 && errno == ESRCH) return pid;
  }
}

std::string tmp_name(const std::string& base, pid_t pid) {
  return base + ".tmp-" + std::to_string(pid);
}

const Files kOld = {{"a.bin", std::string(1000, 'o')}, {"b.json", R"({"state": "old"})"}};
const Files kNew = {{"a.bin", std::string(2000, 'n')}, {"c.json", R"({"state": "new"})"}};

TEST(AtomicIo, ADirectoryReplacesTheOldOneWhole) {
  const std::string dir = fresh_dir("replace");
  save_directory(dir + "/state", kOld);
  EXPECT_EQ(contents(dir + "/state"), kOld);
  save_directory(dir + "/state", kNew);
  EXPECT_EQ(contents(dir + "/state"), kNew);
  EXPECT_EQ(listing(dir), std::set<std::string>{"state"});
}

TEST(AtomicIo, ATrailingSlashStillWritesBesideTheDirectory) {
  const std::string dir = fresh_dir("trailing_slash");
  save_directory(dir + "/state/", kOld);
  save_directory(dir + "/state//", kNew);
  EXPECT_EQ(contents(dir + "/state"), kNew);
  EXPECT_EQ(listing(dir), std::set<std::string>{"state"});
}

TEST(AtomicIo, ASaveRemovesTheTemporariesOfDeadProcesses) {
  const std::string dir = fresh_dir("dead_temporaries");
  save_directory(dir + "/state", kOld);
  // A directory killed mid-save (with a file killed mid-write inside), and the old state that
  // a save killed after its exchange had not finished deleting.
  const std::string killed = dir + "/" + tmp_name("state", dead_pid());
  fs::create_directories(killed + "/nested");
  write_text(killed + "/model.safetensors", std::string(4096, 'x'));
  write_text(killed + "/" + tmp_name("optimizer.safetensors", dead_pid()), "partial");
  write_text(killed + "/nested/deeper", "x");
  const std::string exchanged = dir + "/" + tmp_name("state", dead_pid());
  fs::copy(dir + "/state", exchanged, fs::copy_options::recursive);
  ASSERT_EQ(listing(dir).size(), 3u);

  save_directory(dir + "/state", kNew);
  EXPECT_EQ(listing(dir), std::set<std::string>{"state"});
  EXPECT_EQ(contents(dir + "/state"), kNew);
}

TEST(AtomicIo, AFileSaveRemovesTheTemporariesOfDeadProcesses) {
  const std::string dir = fresh_dir("dead_file_temporaries");
  write_text(dir + "/" + tmp_name("weights.safetensors", dead_pid()), "torn");
  write_text(dir + "/" + tmp_name("weights.safetensors", dead_pid()), "torn too");
  io::AtomicFileWriter file(dir + "/weights.safetensors");
  file.write("new", 3);
  file.commit();
  EXPECT_EQ(listing(dir), std::set<std::string>{"weights.safetensors"});
  EXPECT_EQ(read_text(dir + "/weights.safetensors"), "new");
}

TEST(AtomicIo, TemporariesOfLiveProcessesAndOtherNamesAreLeftAlone) {
  const std::string dir = fresh_dir("left_alone");
  // A live writer: a child that waits until the test is done.
  int gate[2];
  ASSERT_EQ(::pipe(gate), 0);
  const pid_t live = ::fork();
  if (live == 0) {
    char byte;
    ::close(gate[1]);
    while (::read(gate[0], &byte, 1) < 0 && errno == EINTR) {
    }
    ::_exit(0);
  }
  ::close(gate[0]);
  const std::string dead = std::to_string(dead_pid());
  const std::set<std::string> kept = {
      tmp_name("state", live),           // a live process's save in progress
      tmp_name("state", 1),              // init: alive (or not ours to signal: alive too)
      "state.tmp-",                      // no pid
      "state.tmp-0" + dead,              // not how a pid is written
      "state.tmp-" + dead + "x",         // more after the digits
      "state.tmp-" + dead + ".old",      // likewise
      "state.tmp--" + dead,              // a sign
      "state.tmp-99999999999999999999",  // beyond any pid
      tmp_name("other", std::stoi(dead)),
      "x" + tmp_name("state", std::stoi(dead)),
      "state.TMP-" + dead,
  };
  for (const std::string& name : kept) fs::create_directory(dir + "/" + name);
  save_directory(dir + "/state", kOld);
  std::set<std::string> expected = kept;
  expected.insert("state");
  EXPECT_EQ(listing(dir), expected);
  ::close(gate[1]);
  int status = 0;
  ::waitpid(live, &status, 0);
}

TEST(AtomicIo, CleanupNeverFollowsSymbolicLinks) {
  const std::string dir = fresh_dir("symlinks");
  const std::string outside = fresh_dir("symlinks_outside");
  write_text(outside + "/precious", "keep me");
  fs::create_directory(outside + "/sub");
  write_text(outside + "/sub/precious", "keep me too");
  // A stale temporary holding links out of the directory, and links named like temporaries.
  const std::string killed = dir + "/" + tmp_name("state", dead_pid());
  fs::create_directory(killed);
  fs::create_directory_symlink(outside, killed + "/link_to_dir");
  fs::create_symlink(outside + "/precious", killed + "/link_to_file");
  const std::string dir_link = tmp_name("state", dead_pid());
  const std::string file_link = tmp_name("state", dead_pid());
  fs::create_directory_symlink(outside + "/sub", dir + "/" + dir_link);
  fs::create_symlink(outside + "/precious", dir + "/" + file_link);

  save_directory(dir + "/state", kOld);
  EXPECT_EQ(listing(dir), (std::set<std::string>{"state", dir_link, file_link}));
  EXPECT_EQ(read_text(outside + "/precious"), "keep me");
  EXPECT_EQ(read_text(outside + "/sub/precious"), "keep me too");
}

// Checks, in the test process, what a failed save must leave: the old state and nothing else.
void expect_old_state_and_no_temporary(const std::string& dir) {
  EXPECT_EQ(contents(dir + "/state"), kOld);
  EXPECT_EQ(listing(dir), std::set<std::string>{"state"});
}

// Writes a /proc control file (a user namespace's id maps); false when the kernel refuses it.
bool write_proc_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text << std::flush;
  return out.good();
}

// Gives the calling (child) process a mount namespace of its own, so that its mounts leak
// nowhere: directly with CAP_SYS_ADMIN, else inside a new user namespace where this user is
// root, where the kernel allows unprivileged ones. False, saying why, when neither works.
bool enter_private_mount_namespace(std::string& why) {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  const bool entered = ::unshare(CLONE_NEWNS) == 0 ||
                       (::unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 &&
                        write_proc_file("/proc/self/setgroups", "deny") &&
                        write_proc_file("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") &&
                        write_proc_file("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1"));
  if (!entered || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    why = std::string("cannot enter a private mount namespace here: ") + std::strerror(errno);
    return false;
  }
  return true;
}

// Mounts `dir` read-only in a private mount namespace of the calling (child) process; false
// when this machine does not allow it.
bool remount_read_only(const std::string& dir, std::string& why) {
  if (!enter_private_mount_namespace(why)) return false;
  if (::mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND, nullptr) != 0 ||
      ::mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0) {
    why = std::string("cannot mount a read-only directory here: ") + std::strerror(errno);
    return false;
  }
  return true;
}

TEST(AtomicIo, SavingIntoAReadOnlyDirectoryIsAClearError) {
  const std::string dir = fresh_dir("read_only");
  save_directory(dir + "/state", kOld);
  std::string message;
  if (::geteuid() != 0) {
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
    message = testing::error_of([&] { save_directory(dir + "/state", kNew); });
    fs::permissions(dir, fs::perms::owner_all);
  } else {
    // Root writes through permission bits: a read-only bind mount stops it.
    const testing::ChildResult child = testing::run_in_child([&](std::string& out) {
      if (!remount_read_only(dir, out)) return kCannotSetUp;
      out = testing::error_of([&] { save_directory(dir + "/state", kNew); });
      return 0;
    });
    if (child.exited && child.exit_code == kCannotSetUp) GTEST_SKIP() << child.message;
    ASSERT_TRUE(child.exited && child.exit_code == 0) << child.message;
    message = child.message;
  }
  EXPECT_NE(message.find("\"" + dir + "/state"), std::string::npos) << message;
  EXPECT_TRUE(message.find("Read-only file system") != std::string::npos ||
              message.find("Permission denied") != std::string::npos)
      << message;
  expect_old_state_and_no_temporary(dir);
}

TEST(AtomicIo, AFileTooLargeForTheLimitIsAClearErrorThatLeavesTheOldState) {
  // RLIMIT_FSIZE makes writes past the limit fail with EFBIG, as a full disk fails them with
  // ENOSPC, and works without privileges.
  const std::string dir = fresh_dir("file_size_limit");
  save_directory(dir + "/state", kOld);
  const testing::ChildResult child = testing::run_in_child([&](std::string& out) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit = {.rlim_cur = 64 * 1024, .rlim_max = RLIM_INFINITY};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) return kCannotSetUp;
    out = testing::error_of([&] {
      save_directory(dir + "/state", {{"big.bin", std::string(1 << 20, 'n')}});
    });
    return 0;
  });
  ASSERT_TRUE(child.exited && child.exit_code == 0) << child.message;
  EXPECT_NE(child.message.find("cannot write \"" + dir + "/state."), std::string::npos)
      << child.message;
  EXPECT_NE(child.message.find("/big.bin\": File too large"), std::string::npos) << child.message;
  expect_old_state_and_no_temporary(dir);
}

TEST(AtomicIo, AFullDiskIsAClearErrorThatLeavesTheOldState) {
  // A 1 MiB tmpfs in a private mount namespace: needs CAP_SYS_ADMIN or user namespaces.
  const std::string dir = fresh_dir("full_disk");
  const testing::ChildResult child = testing::run_in_child([&](std::string& out) {
    if (!enter_private_mount_namespace(out)) return kCannotSetUp;
    if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=1m") != 0) {
      out = std::string("cannot mount a small tmpfs here: ") + std::strerror(errno);
      return kCannotSetUp;
    }
    save_directory(dir + "/state", kOld);
    out = testing::error_of([&] {
      save_directory(dir + "/state", {{"big.bin", std::string(2 << 20, 'n')}});
    });
    if (contents(dir + "/state") != kOld) out += " [the old state changed]";
    if (listing(dir) != std::set<std::string>{"state"}) out += " [a temporary was left]";
    return 0;
  });
  if (child.exited && child.exit_code == kCannotSetUp) GTEST_SKIP() << child.message;
  ASSERT_TRUE(child.exited && child.exit_code == 0) << child.message;
  EXPECT_NE(child.message.find("cannot write \"" + dir + "/state."), std::string::npos)
      << child.message;
  EXPECT_NE(child.message.find("No space left on device"), std::string::npos) << child.message;
  EXPECT_EQ(child.message.find(" [the old state changed]"), std::string::npos) << child.message;
  EXPECT_EQ(child.message.find(" [a temporary was left]"), std::string::npos) << child.message;
}

// A training state in miniature, laid out as the Trainer saves one (weights, optimizer moments,
// a JSON record), whose every value is `generation`: a whole state is one generation throughout.
// Its bytes are made here, before any fork: a child then only writes files.
Files training_state(int generation) {
  const int64_t kSize = 4096;  // the fsyncs, not the size, make a save take long to kill inside
  return {{"model.safetensors",
           io::serialize_safetensors({{"weight", full({kSize}, generation, kFloat32)}})},
          {"optimizer.safetensors",
           io::serialize_safetensors({{"exp_avg", full({kSize}, -generation, kFloat32)}})},
          {"trainer_state.json", "{\"generation\": " + std::to_string(generation) + "}"}};
}

TEST(AtomicIo, ASaveKilledAtAnyPointLeavesTheOldOrTheNewStateWhole) {
  const std::string dir = fresh_dir("killed_saves");
  const std::string state = dir + "/state";
  const Files old_state = training_state(1);
  const Files new_state = training_state(2);
  save_directory(state, old_state);
  // Kill points spread over the time a save takes, measured here, and a little past it.
  const auto start = std::chrono::steady_clock::now();
  save_directory(state, old_state);
  const auto save_time = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - start);
  constexpr int kKillPoints = 40;
  int killed_midway = 0;
  for (int point = 0; point < kKillPoints; ++point) {
    const auto delay = save_time * point * 5 / (4 * kKillPoints);
    const testing::ChildResult child =
        testing::kill_child_after([&] { save_directory(state, new_state); }, delay);
    ASSERT_TRUE(child.exited ? child.exit_code == 0 : child.signal == SIGKILL)
        << "the saving child failed at " << delay.count() << " us";
    const Files found = contents(state);
    ASSERT_TRUE(found == old_state || found == new_state)
        << "after a kill " << delay.count() << " us into a save, \"" << state
        << "\" holds neither the old state nor the new one";
    const io::SafetensorsContents weights = io::load_safetensors(state + "/model.safetensors");
    EXPECT_EQ(weights.tensors.at(0).second.data_ptr<float>()[0], found == old_state ? 1 : 2);
    if (listing(dir).size() > 1) ++killed_midway;
    // The next save removes what the killed one left.
    save_directory(state, old_state);
    ASSERT_EQ(listing(dir), std::set<std::string>{"state"}) << "after a kill at " << delay.count();
    ASSERT_EQ(contents(state), old_state);
  }
  EXPECT_GT(killed_midway, 0) << "no kill landed inside a save of " << save_time.count() << " us";
}

}  // namespace
}  // namespace accel
