// StopOnInterrupt: a SIGINT handler that only sets a flag (and, the second time, exits with
// async-signal-safe calls); the flag is read between training steps.
#include "accel/trainer/callbacks/stop_on_interrupt.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>

#include "accel/base/error.h"
#include "accel/core/factories.h"
#include "accel/trainer/trainer.h"

namespace accel {
namespace {

// SIGINTs received since the run started. Lock-free, so the handler may touch it.
std::atomic<int> interrupts{0};
static_assert(std::atomic<int>::is_always_lock_free);
// At most one run listens at a time: the handler is process-wide.
std::atomic<bool> listening{false};

void on_sigint(int) {
  if (interrupts.fetch_add(1) == 0) {
    constexpr char kNote[] =
        "\ninterrupt: stopping before the next training step (Ctrl-C again to exit at once)\n";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, kNote, sizeof(kNote) - 1);
    return;
  }
  ::_exit(130);  // 128 + SIGINT, as a shell reports a process ended by Ctrl-C
}

}  // namespace

StopOnInterrupt::~StopOnInterrupt() { restore_previous_handler(); }

void StopOnInterrupt::on_training_run_start(Trainer&) {
  stopped_run_ = false;
  where_.clear();
  ACCEL_CHECK(!listening.exchange(true), "StopOnInterrupt",
              "another StopOnInterrupt is already handling SIGINT for a training run in progress");
  interrupts = 0;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes in progress go on
  if (::sigaction(SIGINT, &action, &previous_) != 0) {
    listening = false;
    fail("StopOnInterrupt", "cannot install a SIGINT handler");
  }
  installed_ = true;
}

void StopOnInterrupt::on_train_step_start(Trainer& trainer) {
  bool interrupted = interrupts.load() > 0;
  const Accelerator& accelerator = trainer.accelerator();
  if (accelerator.is_distributed()) {  // all processes stop at the same step
    const Tensor anywhere =
        accelerator.reduce(tensor({int64_t{interrupted ? 1 : 0}}), distributed::ReduceOp::Max);
    interrupted = anywhere.item<int64_t>() != 0;
  }
  if (!interrupted) return;
  stopped_run_ = true;
  where_ =
      fmt::format("epoch {}, after {} of its {} batches", trainer.run_history().current_epoch(),
                  trainer.epoch_step(), trainer.train_dataloader()->size());
  throw StopTrainingError("Stopping training: interrupted (SIGINT) in " + where_);
}

void StopOnInterrupt::on_training_run_end(Trainer&) { restore_previous_handler(); }

void StopOnInterrupt::restore_previous_handler() {
  if (!installed_) return;
  ::sigaction(SIGINT, &previous_, nullptr);
  installed_ = false;
  listening = false;
}

}  // namespace accel
