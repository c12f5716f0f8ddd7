#!/usr/bin/env python3
"""The epochs of benchmarks/mnist_epoch_bench.cpp in eager PyTorch (Python): the MNIST example's
MLP (784-128-64-10, log-softmax, NLL, SGD 0.001 momentum 0.9, batch 32) over the 60,000
Fashion-MNIST training images and its CNN (two conv blocks, cross-entropy, Adam 0.001, batch 64)
over the first --cnn-samples, written as a PyTorch user writes the loop: images converted to
float once, a shuffled index per epoch, index_select per batch. Prints samples per second of wall
time and per CPU-second at each thread count; asserts nothing.

Usage: python3 benchmarks/pytorch/epochs.py [--data DIR] [--cnn-samples N] [--threads 1 2]
"""
import argparse
import os
import time

import numpy as np
import torch
from torch import nn

from data_loader import read_idx  # this folder's IDX reader


def find(directory, stem):
    for name in (stem + ".gz", stem):
        if os.path.exists(os.path.join(directory, name)):
            return os.path.join(directory, name)
    raise SystemExit(f"{stem} not found in {directory}")


def epoch(images, labels, model, optimizer, loss_fn, batch_size):
    n = images.shape[0]
    wall, cpu = time.perf_counter(), time.process_time()
    order = torch.randperm(n)
    loss_sum = 0.0
    for first in range(0, n, batch_size):
        index = order[first:first + batch_size]
        x, y = images.index_select(0, index), labels.index_select(0, index)
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        loss_sum += loss.item() * x.shape[0]
    return n / (time.perf_counter() - wall), n / (time.process_time() - cpu), loss_sum / n


def mlp_epoch(images, labels):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 64),
                          nn.ReLU(), nn.Linear(64, 10), nn.LogSoftmax(1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
    return epoch(images, labels, model, optimizer, nn.functional.nll_loss, 32)


def cnn_epoch(images, labels):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    return epoch(images, labels, model, optimizer, nn.functional.cross_entropy, 64)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--cnn-samples", type=int, default=12800)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, os.cpu_count()])
    args = parser.parse_args()
    images = torch.from_numpy(read_idx(find(args.data, "train-images-idx3-ubyte")).copy())
    images = images.float().div(255).unsqueeze(1)
    labels = torch.from_numpy(read_idx(find(args.data, "train-labels-idx1-ubyte")).astype(np.int64))
    print(f"torch {torch.__version__}, {torch.backends.cpu.get_cpu_capability()}")
    print(f"{'epoch':<34} {'threads':>7} | pytorch samples/s, /cpu-s, loss")
    for name, run, count in (("mlp, batch 32, SGD (60000 samples)", mlp_epoch, len(images)),
                             ("cnn, batch 64, Adam", cnn_epoch, args.cnn_samples)):
        for threads in args.threads:
            torch.set_num_threads(threads)
            rate, cpu_rate, loss = run(images[:count], labels[:count])
            print(f"{name:<34} {threads:>7} | {rate:9.0f} {cpu_rate:9.0f} {loss:7.4f}")


if __name__ == "__main__":
    main()
