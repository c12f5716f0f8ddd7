#!/usr/bin/env python3
"""Writes PyTorch reference trajectories for accel's optimizer and LR scheduler tests
(tests/reference/fixtures/optim_trajectories.json, optim_schedulers.json).

Two float64 parameters (shapes [3] and [2, 2]) minimize loss = sum(a * p * p + b * p) with
fixed a, b; each case runs one optimizer configuration for 10 steps (gradients by autograd)
and stores the parameters after every step (and the state buffers in FINAL_STATE_KEYS after
the last). Each LBFGS case runs LBFGS_STEPS steps with a closure on the Rosenbrock function of
the same parameters and stores the parameters, the returned loss and the state's func_evals and
n_iter after each. Case names match the C++ tables in tests/optim/optimizer_trajectory_test.cpp
and tests/optim/lbfgs_test.cpp.
Each scheduler case drives an optimizer with two parameter groups (rates 0.1 and 0.05) for
SCHEDULER_STEPS steps and stores both rates and group 0's momentum (beta1 for Adam) after
construction and after every step; ReduceLROnPlateau is stepped with the stored metrics. Case
names match tests/optim/lr_scheduler_test.cpp. CosineAnnealingWarmRestarts is also stepped with
explicit (fractional) epochs: its rates, last_epoch, T_cur and T_i after each.

Run by hand where torch is installed:  python3 tests/reference/generate_optim_fixtures.py
"""
import json
import pathlib

import torch

HERE = pathlib.Path(__file__).resolve().parent
STEPS = 10
SHAPES = [(3,), (2, 2)]

O = torch.optim
# name -> (optimizer class, per-group option overrides (None: one group), default options)
CASES = {
    "sgd_plain": (O.SGD, None, dict(lr=0.1)),
    "sgd_momentum": (O.SGD, None, dict(lr=0.1, momentum=0.9)),
    "sgd_dampening_weight_decay": (
        O.SGD, None, dict(lr=0.05, momentum=0.9, dampening=0.3, weight_decay=0.1)),
    "sgd_nesterov": (O.SGD, None, dict(lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.01)),
    "sgd_maximize": (O.SGD, None, dict(lr=0.01, momentum=0.5, maximize=True)),
    "sgd_param_groups": (O.SGD, [{}, dict(lr=0.01, momentum=0.5)], dict(lr=0.1, momentum=0.9)),
    "adam_default": (O.Adam, None, dict(lr=0.1)),
    "adam_amsgrad_weight_decay": (
        O.Adam, None, dict(lr=0.1, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True)),
    "adam_maximize": (O.Adam, None, dict(lr=0.05, maximize=True)),
    "adam_param_groups": (O.Adam, [{}, dict(lr=0.01, betas=(0.5, 0.9))], dict(lr=0.1)),
    "adamw_default": (O.AdamW, None, dict(lr=0.1)),
    "adamw_amsgrad": (
        O.AdamW, None, dict(lr=0.1, betas=(0.85, 0.95), weight_decay=0.5, amsgrad=True)),
    "rmsprop_default": (O.RMSprop, None, dict(lr=0.01)),
    "rmsprop_centered": (O.RMSprop, None, dict(lr=0.01, centered=True)),
    "rmsprop_momentum_centered_weight_decay": (
        O.RMSprop, None,
        dict(lr=0.01, alpha=0.9, eps=1e-6, momentum=0.8, centered=True, weight_decay=0.1)),
    "rmsprop_momentum_maximize": (O.RMSprop, None, dict(lr=0.01, momentum=0.5, maximize=True)),
    "adagrad_default": (O.Adagrad, None, dict(lr=0.1)),
    "adagrad_options": (
        O.Adagrad, None,
        dict(lr=0.1, lr_decay=0.1, weight_decay=0.1, initial_accumulator_value=0.5, eps=1e-8)),
    "adagrad_maximize": (O.Adagrad, None, dict(lr=0.1, maximize=True)),
    "adamax_default": (O.Adamax, None, dict(lr=0.1)),
    "adamax_weight_decay": (
        O.Adamax, None, dict(lr=0.1, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
    "adamax_maximize": (O.Adamax, None, dict(lr=0.05, maximize=True)),
    "adamax_param_groups": (O.Adamax, [{}, dict(lr=0.01, betas=(0.5, 0.9))], dict(lr=0.1)),
    "nadam_default": (O.NAdam, None, dict(lr=0.1)),
    "nadam_weight_decay": (
        O.NAdam, None,
        dict(lr=0.1, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, momentum_decay=0.01)),
    "nadam_decoupled_weight_decay_maximize": (
        O.NAdam, None, dict(lr=0.05, weight_decay=0.5, decoupled_weight_decay=True, maximize=True)),
    "nadam_param_groups": (
        O.NAdam, [{}, dict(lr=0.01, betas=(0.5, 0.9), momentum_decay=0.1)], dict(lr=0.1)),
    # rho_t exceeds 5 from step 6 (beta2 0.9, 0.999), 7 (0.8) or 10 (0.7): every case crosses
    # the rectification switch within its 10 steps.
    "radam_default": (O.RAdam, None, dict(lr=0.1, betas=(0.9, 0.9))),
    "radam_weight_decay": (
        O.RAdam, None, dict(lr=0.1, betas=(0.8, 0.8), eps=1e-6, weight_decay=0.1)),
    "radam_decoupled_weight_decay_maximize": (
        O.RAdam, None,
        dict(lr=0.05, betas=(0.9, 0.9), weight_decay=0.5, decoupled_weight_decay=True,
             maximize=True)),
    "radam_param_groups": (O.RAdam, [{}, dict(lr=0.01, betas=(0.5, 0.7))], dict(lr=0.1)),
    "adadelta_default": (O.Adadelta, None, dict()),
    "adadelta_weight_decay": (
        O.Adadelta, None, dict(lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1)),
    "adadelta_maximize": (O.Adadelta, None, dict(lr=0.5, maximize=True)),
    "adadelta_param_groups": (
        O.Adadelta, [{}, dict(lr=0.1, rho=0.5)], dict(lr=1.0, rho=0.95)),
    "rprop_default": (O.Rprop, None, dict(lr=0.1)),
    "rprop_etas_step_sizes": (
        O.Rprop, None, dict(lr=0.3, etas=(0.3, 1.5), step_sizes=(0.01, 0.4))),
    "rprop_maximize": (O.Rprop, None, dict(lr=0.05, maximize=True)),
    "rprop_param_groups": (O.Rprop, [{}, dict(lr=0.01, etas=(0.4, 1.1))], dict(lr=0.2)),
    "asgd_default": (O.ASGD, None, dict(lr=0.1)),
    # Averaging starts after step t0: the state "ax" (checked after the last step) moves away
    # from the parameters.
    "asgd_averaging": (
        O.ASGD, None, dict(lr=0.05, lambd=0.01, alpha=0.5, t0=3, weight_decay=0.1)),
    "asgd_maximize": (O.ASGD, None, dict(lr=0.02, maximize=True)),
    "asgd_param_groups": (O.ASGD, [{}, dict(lr=0.01, t0=2)], dict(lr=0.1, t0=5)),
}
# Per-parameter state buffers stored after the last step of the cases that have them.
FINAL_STATE_KEYS = ["ax", "prev", "step_size"]

LBFGS_STEPS = 6
# name -> LBFGS options; each case minimizes the Rosenbrock function of the parameters' 7
# elements (its negation under maximize) from the shared initial values.
LBFGS_CASES = {
    "lbfgs_fixed_step": dict(lr=0.1, max_iter=5),
    "lbfgs_history_2": dict(lr=0.2, max_iter=4, history_size=2),
    "lbfgs_strong_wolfe": dict(max_iter=5, line_search_fn="strong_wolfe"),
    "lbfgs_strong_wolfe_max_eval": dict(
        max_iter=10, max_eval=4, history_size=3, line_search_fn="strong_wolfe"),
    "lbfgs_maximize": dict(lr=0.1, max_iter=3, maximize=True, line_search_fn="strong_wolfe"),
    "lbfgs_converges": dict(max_iter=100, tolerance_change=1e-12, line_search_fn="strong_wolfe"),
}


S = torch.optim.lr_scheduler
SCHEDULER_STEPS = 120
METRICS = [1.0 / (1 + 0.1 * t) if t < 30 else 0.25 + 0.01 * (t % 7) for t in range(SCHEDULER_STEPS)]
# name -> (optimizer class, scheduler factory)
SCHEDULERS = {
    "step_lr": (O.SGD, lambda o: S.StepLR(o, step_size=7, gamma=0.5)),
    "multi_step_lr": (O.SGD, lambda o: S.MultiStepLR(o, milestones=[10, 30, 30, 80], gamma=0.3)),
    "exponential_lr": (O.SGD, lambda o: S.ExponentialLR(o, gamma=0.97)),
    "cosine_annealing_lr": (O.SGD, lambda o: S.CosineAnnealingLR(o, T_max=40, eta_min=0.001)),
    "linear_lr": (O.SGD, lambda o: S.LinearLR(o, start_factor=0.25, end_factor=0.9, total_iters=30)),
    "lambda_lr": (O.SGD, lambda o: S.LambdaLR(o, lambda e: 0.95**e)),
    "one_cycle_lr": (O.SGD, lambda o: S.OneCycleLR(o, max_lr=0.5, total_steps=SCHEDULER_STEPS + 1)),
    "one_cycle_lr_adam_three_phase_linear": (
        O.Adam,
        lambda o: S.OneCycleLR(o, max_lr=0.3, total_steps=SCHEDULER_STEPS + 1, pct_start=0.25,
                               anneal_strategy="linear", three_phase=True, div_factor=10.0,
                               final_div_factor=100.0)),
    "sequential_lr": (
        O.SGD,
        lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=10),
                                     S.CosineAnnealingLR(o, T_max=50), S.ExponentialLR(o, 0.9)],
                                 milestones=[10, 60])),
    "reduce_lr_on_plateau": (
        O.SGD,
        lambda o: S.ReduceLROnPlateau(o, factor=0.5, patience=3, threshold=0.01, cooldown=2,
                                      min_lr=0.002)),
    "reduce_lr_on_plateau_max_abs": (
        O.SGD,
        lambda o: S.ReduceLROnPlateau(o, mode="max", factor=0.3, patience=2, threshold=0.1,
                                      threshold_mode="abs")),
    "constant_lr": (O.SGD, lambda o: S.ConstantLR(o, factor=0.4, total_iters=9)),
    "polynomial_lr": (O.SGD, lambda o: S.PolynomialLR(o, total_iters=50, power=1.7)),
    "multiplicative_lr": (O.SGD, lambda o: S.MultiplicativeLR(o, lambda e: 0.99 if e % 3 else 0.9)),
    "multiplicative_lr_per_group": (
        O.SGD, lambda o: S.MultiplicativeLR(o, [lambda e: 0.97, lambda e: 1.0 - 0.002 * e])),
    "cosine_annealing_warm_restarts": (
        O.SGD, lambda o: S.CosineAnnealingWarmRestarts(o, T_0=7, T_mult=2, eta_min=0.001)),
    "cosine_annealing_warm_restarts_t_mult_1": (
        O.SGD, lambda o: S.CosineAnnealingWarmRestarts(o, T_0=10)),
    "cyclic_lr_triangular": (
        O.SGD, lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=10, step_size_down=15)),
    "cyclic_lr_triangular2_adam_per_group": (
        O.Adam,
        lambda o: S.CyclicLR(o, base_lr=[0.001, 0.002], max_lr=[0.05, 0.03], step_size_up=8,
                             mode="triangular2", base_momentum=0.85, max_momentum=0.95)),
    "cyclic_lr_exp_range": (
        O.SGD, lambda o: S.CyclicLR(o, base_lr=0.02, max_lr=0.2, step_size_up=12, mode="exp_range",
                                    gamma=0.99)),
    "cyclic_lr_scale_fn_iterations": (
        O.SGD, lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=6, step_size_down=3,
                                    scale_fn=lambda x: 1 / (1 + 0.01 * x), scale_mode="iterations",
                                    cycle_momentum=False)),
    "cyclic_lr_scale_fn_cycle_sawtooth": (
        O.SGD, lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=5, step_size_down=0,
                                    scale_fn=lambda c: 0.8**c)),
    "chained_scheduler": (
        O.SGD, lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=12),
                                             S.ExponentialLR(o, 0.98),
                                             S.PolynomialLR(o, total_iters=80, power=0.5)])),
}
# CosineAnnealingWarmRestarts stepped with explicit epochs: fractional ones within periods (as
# when stepping per batch), period starts, jumps forward and back.
WARM_RESTART_EPOCHS = [0.5, 1.25, 2.999, 3, 6.9, 7, 7.5, 20.75, 21, 48.2, 49, 104.9, 105, 200.3, 4.5,
                       0, 10.5]


def momentum(group):
    return group["betas"][0] if "betas" in group else group["momentum"]


def run_scheduler(cls, make):
    p, q = torch.zeros(2, requires_grad=True), torch.zeros(1, requires_grad=True)
    extra = dict(momentum=0.9) if cls is O.SGD else {}
    opt = cls([dict(params=[p], lr=0.1), dict(params=[q], lr=0.05)], **extra)
    sched = make(opt)
    record = lambda: [*sched.get_last_lr(), momentum(opt.param_groups[0])]  # noqa: E731
    rows = [record()]
    for metric in METRICS:
        opt.step()
        if isinstance(sched, S.ReduceLROnPlateau):
            sched.step(metric)
        else:
            sched.step()
        rows.append(record())
    return rows


def run_warm_restart_epochs():
    p, q = torch.zeros(2, requires_grad=True), torch.zeros(1, requires_grad=True)
    opt = O.SGD([dict(params=[p], lr=0.1), dict(params=[q], lr=0.05)], momentum=0.9)
    sched = S.CosineAnnealingWarmRestarts(opt, T_0=7, T_mult=2, eta_min=0.001)
    rows = []
    for epoch in WARM_RESTART_EPOCHS:
        sched.step(epoch)
        rows.append([*sched.get_last_lr(), sched.last_epoch, sched.T_cur, sched.T_i])
    return {"epochs": WARM_RESTART_EPOCHS, "rows": rows}


def flat(tensors):
    return [t.detach().reshape(-1).tolist() for t in tensors]


def run(cls, groups, defaults, initial, a, b):
    params = [t.clone().requires_grad_(True) for t in initial]
    if groups is None:
        opt = cls(params, **defaults)
    else:
        opt = cls([dict(params=[p], **g) for p, g in zip(params, groups)], **defaults)
    trajectory = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = sum((ai * p * p + bi * p).sum() for p, ai, bi in zip(params, a, b))
        loss.backward()
        opt.step()
        trajectory.append(flat(params))
    final_state = {key: flat(opt.state[p][key] for p in params)
                   for key in FINAL_STATE_KEYS if key in opt.state[params[0]]}
    return trajectory, final_state


def rosenbrock(params):
    z = torch.cat([p.reshape(-1) for p in params])
    x, y = z[:-1], z[1:]
    r = y - x * x
    return (100 * r * r + (1 - x) * (1 - x)).sum()


def run_lbfgs(options, initial):
    params = [t.clone().requires_grad_(True) for t in initial]
    opt = O.LBFGS(params, **options)
    sign = -1 if options.get("maximize", False) else 1

    def closure():
        opt.zero_grad()
        loss = sign * rosenbrock(params)
        loss.backward()
        return loss

    rows = []
    for _ in range(LBFGS_STEPS):
        loss = opt.step(closure)
        state = opt.state[params[0]]
        rows.append(dict(params=flat(params), loss=float(loss), func_evals=state["func_evals"],
                         n_iter=state["n_iter"]))
    return rows


def main():
    torch.set_default_dtype(torch.float64)
    g = torch.Generator().manual_seed(1234)
    initial = [torch.randn(s, generator=g) for s in SHAPES]
    a = [torch.rand(s, generator=g) + 0.5 for s in SHAPES]
    b = [torch.randn(s, generator=g) for s in SHAPES]
    runs = {name: run(*spec, initial, a, b) for name, spec in CASES.items()}
    fixture = {
        "initial": flat(initial),
        "a": flat(a),
        "b": flat(b),
        "cases": {name: trajectory for name, (trajectory, _) in runs.items()},
        "final_state": {name: state for name, (_, state) in runs.items() if state},
        "lbfgs": {name: run_lbfgs(options, initial) for name, options in LBFGS_CASES.items()},
    }
    path = HERE / "fixtures" / "optim_trajectories.json"
    path.write_text(json.dumps(fixture, indent=None, separators=(",", ":")) + "\n")
    print(f"{path.relative_to(HERE.parent.parent)}: {len(fixture['cases'])} cases")
    schedulers = {
        "metrics": METRICS,
        "cases": {name: run_scheduler(*spec) for name, spec in SCHEDULERS.items()},
        "cosine_annealing_warm_restarts_epochs": run_warm_restart_epochs(),
    }
    path = HERE / "fixtures" / "optim_schedulers.json"
    path.write_text(json.dumps(schedulers, indent=None, separators=(",", ":")) + "\n")
    print(f"{path.relative_to(HERE.parent.parent)}: {len(schedulers['cases'])} cases")


if __name__ == "__main__":
    main()
