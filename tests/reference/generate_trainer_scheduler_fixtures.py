#!/usr/bin/env python3
"""Writes reference LR sequences for accel's pytorch-accelerated schedulers
(tests/reference/fixtures/trainer_schedulers.json), read by tests/optim/trainer_scheduler_test.cpp.

Each case drives a torch SGD optimizer with two parameter groups (rates 0.1 and 0.05) for STEPS
steps (past the end of the schedule) and stores both rates after construction and after every
step. WSDLrScheduler cases run pytorch-accelerated 0.1.61's own class. CosineLrScheduler cases
run `cosine_rates`, a plain re-statement of the original's formula with the original's warmup defect
fixed; with `fixed=False` the same function must reproduce the original class bit for bit
(checked here for every case), so the two differ by the fix alone.

Run by hand where torch and the original are installed:
  pip install --no-deps pytorch-accelerated==0.1.61
  python3 tests/reference/generate_trainer_scheduler_fixtures.py
"""
import importlib.util
import json
import math
import pathlib
import sys
import types

import torch

HERE = pathlib.Path(__file__).resolve().parent
STEPS = 130
BASE_LRS = [0.1, 0.05]


def import_original_schedulers():
    """pytorch_accelerated/__init__ imports the Trainer and Hugging Face Accelerate; the
    schedulers need only TrainerPlaceholderValues, so the package is entered past its __init__."""
    spec = importlib.util.find_spec("pytorch_accelerated")
    if spec is None:
        sys.exit("pytorch-accelerated is not installed: pip install --no-deps "
                 "pytorch-accelerated==0.1.61")
    placeholders = types.SimpleNamespace(
        NUM_EPOCHS="NUM_EPOCHS", NUM_UPDATE_STEPS_PER_EPOCH="NUM_UPDATE_STEPS_PER_EPOCH",
        PER_PROCESS_NUM_UPDATE_STEPS_PER_EPOCH="PER_PROCESS_NUM_UPDATE_STEPS_PER_EPOCH")
    package = types.ModuleType("pytorch_accelerated")
    package.__path__ = list(spec.submodule_search_locations)
    package.TrainerPlaceholderValues = placeholders
    trainer = types.ModuleType("pytorch_accelerated.trainer")
    trainer.TrainerPlaceholderValues = placeholders
    sys.modules.update({"pytorch_accelerated": package, "pytorch_accelerated.trainer": trainer})
    from pytorch_accelerated.schedulers import CosineLrScheduler, WSDLrScheduler
    return CosineLrScheduler, WSDLrScheduler


def make_optimizer():
    params = [torch.zeros(2, requires_grad=True), torch.zeros(1, requires_grad=True)]
    return torch.optim.SGD([dict(params=[p], lr=lr) for p, lr in zip(params, BASE_LRS)], lr=0.1)


def run(make_scheduler):
    opt = make_optimizer()
    sched = make_scheduler(opt)
    rates = lambda: [g["lr"] for g in opt.param_groups]  # noqa: E731
    rows = [rates()]
    for _ in range(STEPS):
        opt.step()
        sched.step()
        rows.append(rates())
    return rows


def cosine_rates(fixed, total_num_epochs, num_update_steps_per_epoch, k_decay=1.0, lr_min=1e-6,
                 min_lr_ratio=None, num_warmup_epochs=0, warmup_starting_lr=1e-6,
                 warmup_starting_lr_ratio=None, num_cooldown_epochs=0):
    """CosineLrScheduler's rates after construction and after each step. fixed=False: the
    original's; fixed=True: the cosine runs its full T - W - C indices after the warmup and
    reaches the minimum at its last one, and the warmup starts at ratio x base exactly."""
    total = total_num_epochs * num_update_steps_per_epoch
    warmup = num_warmup_epochs * num_update_steps_per_epoch
    cooldown = num_cooldown_epochs * num_update_steps_per_epoch
    cosine = total - warmup - cooldown

    def rate(lr, n):
        low = min_lr_ratio * lr if min_lr_ratio is not None else lr_min
        if n < warmup:
            start = warmup_starting_lr_ratio * lr if warmup_starting_lr_ratio is not None \
                else warmup_starting_lr
            return start + n * ((lr - (start if fixed else warmup_starting_lr)) / warmup)
        if n < total - cooldown - (0 if fixed else warmup):
            last = cosine - 1 if fixed else cosine
            angle = math.pi * (n - warmup)**k_decay / last**k_decay if last > 0 else math.pi
            return low + 0.5 * (lr - low) * (1 + math.cos(angle))
        return low

    if warmup and fixed:
        initial = [rate(lr, 0) for lr in BASE_LRS]
    else:
        initial = [warmup_starting_lr] * len(BASE_LRS) if warmup else list(BASE_LRS)
    return [initial] + [[rate(lr, n) for lr in BASE_LRS] for n in range(STEPS)]


# name -> CosineLrScheduler arguments; names match tests/optim/trainer_scheduler_test.cpp.
COSINE = {
    "cosine_default": dict(total_num_epochs=12, num_update_steps_per_epoch=10),
    "cosine_warmup_cooldown": dict(total_num_epochs=12, num_update_steps_per_epoch=10,
                                   lr_min=1e-4, num_warmup_epochs=2, num_cooldown_epochs=1),
    "cosine_ratios_k_decay": dict(total_num_epochs=8, num_update_steps_per_epoch=15, k_decay=2.0,
                                  min_lr_ratio=0.05, num_warmup_epochs=2,
                                  warmup_starting_lr_ratio=0.1),
    "cosine_warmup_start_k_decay": dict(total_num_epochs=24, num_update_steps_per_epoch=5,
                                        k_decay=0.5, num_warmup_epochs=3, warmup_starting_lr=0.01),
}

# name -> WSDLrScheduler arguments; names match tests/optim/trainer_scheduler_test.cpp.
WSD = {
    "wsd_sqrt": dict(total_steps=120, num_warmup_steps=10, decay_phase_ratio=0.2, lr_min=0.01),
    "wsd_inverse_proportional_three_checkpoints": dict(
        total_steps=120, num_warmup_steps=5, decay_phase_ratio=0.25, lr_min=0.05,
        use_inverse_sqrt_decay=False, num_checkpoints=3),
    "wsd_default_warmup_two_checkpoints": dict(
        total_steps=120, num_warmup_steps=None, decay_phase_ratio=0.3, lr_min=0.02,
        num_checkpoints=2, warmup_starting_lr=0.001),
    "wsd_continuation": dict(total_steps=80, num_warmup_steps=10, decay_phase_ratio=0.1,
                             is_continuation_from_checkpoint=True),
}


def main():
    torch.set_default_dtype(torch.float64)
    original_cosine, original_wsd = import_original_schedulers()
    cases = {}
    for name, args in COSINE.items():
        original = run(lambda o: original_cosine(o, **args))
        assert cosine_rates(False, **args) == original, f"{name}: re-statement != original"
        cases[name] = cosine_rates(True, **args)
    for name, args in WSD.items():
        cases[name] = run(lambda o: original_wsd(o, **args))
    path = HERE / "fixtures" / "trainer_schedulers.json"
    path.write_text(json.dumps({"steps": STEPS, "cases": cases}, separators=(",", ":")) + "\n")
    print(f"{path.relative_to(HERE.parent.parent)}: {len(cases)} cases")


if __name__ == "__main__":
    main()
