#!/usr/bin/env python3
"""The workload of benchmarks/data_loader_bench.cpp in PyTorch: batches/s iterating
Fashion-MNIST train, shuffled, at batch 32 and 256 with 0 and 2 workers, through
torch.utils.data.DataLoader over a TensorDataset (float32 images in [0,1], int64 labels).
Prints figures; asserts nothing. Workers are processes here (threads in accel).

Usage: python3 benchmarks/pytorch/data_loader.py [fashion-mnist dir]
"""
import gzip
import sys
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def read_idx(path):
    with (gzip.open(path) if path.endswith(".gz") else open(path, "rb")) as f:
        data = f.read()
    ndims = data[3]
    shape = [int.from_bytes(data[4 + 4 * d:8 + 4 * d], "big") for d in range(ndims)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndims).reshape(shape)


def batches_per_second(dataset, batch_size, workers, min_seconds=2.0):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=workers,
                        generator=torch.Generator().manual_seed(42))
    batches = 0
    start = time.perf_counter()
    while batches == 0 or time.perf_counter() - start < min_seconds:
        for _ in loader:
            batches += 1
    return batches / (time.perf_counter() - start)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/datasets/fashion-mnist"
    torch.set_num_threads(1)
    start = time.perf_counter()
    images = torch.from_numpy(read_idx(f"{root}/train-images-idx3-ubyte.gz").copy())
    labels = torch.from_numpy(read_idx(f"{root}/train-labels-idx1-ubyte.gz").copy())
    dataset = TensorDataset(images.float().div(255).unsqueeze(1), labels.long())
    print(f"torch {torch.__version__}: load Fashion-MNIST train ({len(dataset)} images, gzip): "
          f"{time.perf_counter() - start:.2f} s")
    for batch_size in (32, 256):
        for workers in (0, 2):
            rate = batches_per_second(dataset, batch_size, workers)
            print(f"batch {batch_size:>3}  workers {workers}  {rate:>9.0f} batches/s  "
                  f"{rate * batch_size / 1e6:>6.2f} M samples/s")


if __name__ == "__main__":
    main()
