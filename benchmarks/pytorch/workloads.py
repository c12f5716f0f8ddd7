#!/usr/bin/env python3
"""The workloads of benchmarks/workloads.h in eager PyTorch (Python), for comparison with
accel_bench: small-op overhead of a + b with and without autograd recording, matmul GFLOP/s,
and the bandwidth of a large element-wise add. Prints figures; asserts nothing.

Usage: python3 benchmarks/pytorch/workloads.py [--threads 1 2]
Timing: the calling thread's CPU time for small ops and one-thread runs (robust on a shared
machine, as accel_bench), wall time for multi-threaded throughput.
"""
import argparse
import time

import torch

SMALL = [("add[1]", 1, False), ("add[1]+autograd", 1, True),
         ("add[32,128]", 32 * 128, False), ("add[32,128]+autograd", 32 * 128, True)]
GEMMS = [("matmul[32x784]x[784x128]", 32, 784, 128),
         ("matmul[1024x1024]x[1024x1024]", 1024, 1024, 1024)]
LARGE_NUMEL = 16 << 20


def seconds_per_call(fn, use_cpu_clock, min_time=0.5, repetitions=5):
    """Median over repetitions of the time per call, each repetition at least min_time long."""
    clock = time.thread_time if use_cpu_clock else time.perf_counter
    fn()
    calls = 1
    while True:
        start = clock()
        for _ in range(calls):
            fn()
        if clock() - start >= min_time / 10:
            break
        calls *= 10
    calls = max(1, int(calls * 10 * min_time / max(clock() - start, 1e-9) / 10))
    results = []
    for _ in range(repetitions):
        start = clock()
        for _ in range(calls):
            fn()
        results.append((clock() - start) / calls)
    return sorted(results)[len(results) // 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.backends.cpu.get_cpu_capability()}")
    for threads in args.threads:
        torch.set_num_threads(threads)
        for name, numel, record in SMALL:
            a = torch.ones(numel, requires_grad=record)
            b = torch.ones(numel, requires_grad=record)
            t = seconds_per_call(lambda: a + b, use_cpu_clock=True)
            print(f"{name:<32} threads={threads}  pytorch {t * 1e6:.3f} us")
        for name, m, k, n in GEMMS:
            a = torch.randn(m, k)
            b = torch.randn(k, n)
            t = seconds_per_call(lambda: torch.matmul(a, b), use_cpu_clock=threads == 1)
            print(f"{name:<32} threads={threads}  pytorch {2 * m * k * n / t / 1e9:.1f} GFLOP/s")
        a = torch.ones(LARGE_NUMEL)
        b = torch.ones(LARGE_NUMEL)
        t = seconds_per_call(lambda: a + b, use_cpu_clock=threads == 1)
        print(f"{'add[16M]+[16M]':<32} threads={threads}  pytorch {3 * 4 * LARGE_NUMEL / t / 1e9:.1f} GB/s")


if __name__ == "__main__":
    main()
