"""PyTorch's side of benchmarks/cuda/cuda_bench.cpp, printed as "torch_<name> value" lines:
device copy bandwidth and a + b on 256M float32 elements, matrix products at 4096^3 and
8192^3 in float32 and bfloat16 (TF32 off, PyTorch's default), and the host time of a small
op from Python eager. Medians of repetitions timed like accel's (device synchronized around
each repetition, after a warm-up)."""
import statistics
import time

import torch


def seconds_per_call(reps, calls, body):
    body()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(calls):
            body()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def report(name, value):
    print(f"torch_{name} {value:.4g}")


def main():
    if not torch.cuda.is_available():
        print("cuda_ops.py: no CUDA device available")
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    n = 256 << 20
    a = torch.randn(n, device="cuda")
    b = torch.randn(n, device="cuda")
    copy = torch.empty_like(a)
    nbytes = n * 4
    report("copy_256M_f32_GBps", 2 * nbytes / seconds_per_call(7, 5, lambda: copy.copy_(a)) / 1e9)
    report("add_256M_f32_GBps", 3 * nbytes / seconds_per_call(7, 5, lambda: a + b) / 1e9)
    del a, b, copy
    for dtype, label in ((torch.float32, "float32"), (torch.bfloat16, "bfloat16")):
        for size in (4096, 8192):
            x = torch.randn(size, size, device="cuda").to(dtype)
            y = torch.randn(size, size, device="cuda").to(dtype)
            s = seconds_per_call(5, 20 if size == 4096 else 5, lambda: x @ y)
            report(f"matmul_{label}_{size}_TFLOPs", 2 * size**3 / s / 1e12)
    x = torch.randn(32, 128, device="cuda")
    y = torch.randn(32, 128, device="cuda")
    times = []
    for _ in range(21):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(500):
            x + y
        times.append((time.perf_counter() - start) / 500)
    torch.cuda.synchronize()
    report("py_small_add_32x128_host_us", statistics.median(times) * 1e6)


if __name__ == "__main__":
    main()
