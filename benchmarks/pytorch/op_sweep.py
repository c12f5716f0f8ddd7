#!/usr/bin/env python3
"""Eager PyTorch's twin of benchmarks/op_sweep_bench.cpp: the same ops at the same sizes, each
op's median time per call over 7 rounds of at least 50 ms. Prints figures; asserts nothing.

Usage: python3 benchmarks/pytorch/op_sweep.py [THREADS]
"""
import sys
import time

import torch
import torch.nn.functional as F


def time_op(name, op):
    for _ in range(3):
        op()
    per_call = []
    for _ in range(7):
        calls, start, elapsed = 0, time.perf_counter(), 0.0
        while elapsed < 0.05:
            op()
            calls += 1
            elapsed = time.perf_counter() - start
        per_call.append(elapsed / calls * 1e6)
    per_call.sort()
    print(f"{name:<24} {per_call[3]:10.1f}")


def leaf(x):
    return x.detach().requires_grad_()


def main():
    torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    torch.manual_seed(0)
    x, y = torch.randn(1024, 1024), torch.randn(1024, 1024)
    mask = x > 0.5
    rows = torch.randint(0, 1024, (4096,))
    positions = torch.randint(0, 1024, (1024, 1024))
    images = torch.randn(32, 64, 32, 32)
    table = torch.randn(10000, 256)
    tokens = torch.randint(0, 10000, (64, 128))
    labels = torch.randint(0, 1000, (1 << 20,))
    print(f"op  median us per call, {torch.get_num_threads()} threads")
    time_op("sum", lambda: x.sum())
    time_op("sum_dim0", lambda: x.sum(0))
    time_op("max_dim1", lambda: x.max(1)[0])
    time_op("argmax_dim1", lambda: x.argmax(1))
    time_op("var_dim1", lambda: x.var(1))
    time_op("norm", lambda: x.norm())
    time_op("softmax", lambda: x.softmax(1))
    time_op("log_softmax", lambda: x.log_softmax(1))
    time_op("mul_broadcast_row", lambda: x * x[0])
    time_op("div", lambda: x / y)
    time_op("sqrt", lambda: y.abs().sqrt())
    time_op("clamp", lambda: x.clamp(-0.5, 0.5))
    time_op("where", lambda: torch.where(mask, x, y))
    time_op("masked_fill", lambda: x.masked_fill(mask, 0.0))
    time_op("masked_select", lambda: x.masked_select(mask))
    time_op("bool_index", lambda: x[mask])
    time_op("nonzero", lambda: mask.nonzero())
    time_op("index_select0", lambda: x.index_select(0, rows))
    time_op("gather1", lambda: x.gather(1, positions))
    time_op("scatter_add1", lambda: x.scatter_add(1, positions, y))
    time_op("index_add0", lambda: x.index_add(0, rows[:1024], y))
    time_op("cat1", lambda: torch.cat([x, y], 1))
    time_op("permute_copy", lambda: images.permute(0, 2, 3, 1).contiguous())
    time_op("cumsum_dim0", lambda: x.cumsum(0))
    time_op("topk_dim1_k10", lambda: x.topk(10, 1)[0])
    time_op("sort_dim1", lambda: x.sort(1)[0])
    time_op("avg_pool2d", lambda: F.avg_pool2d(images, 2))
    time_op("global_avg_pool", lambda: F.adaptive_avg_pool2d(images, 1))
    time_op("interp_bilinear2x", lambda: F.interpolate(images, scale_factor=2.0, mode="bilinear"))
    time_op("pad_reflect", lambda: F.pad(images, (1, 1, 1, 1), mode="reflect"))
    time_op("embedding", lambda: F.embedding(tokens, table))
    time_op("dropout", lambda: F.dropout(x, 0.5, True))
    time_op("bincount", lambda: labels.bincount())
    time_op("unique", lambda: torch.unique(labels, True, True, True))
    time_op("one_hot", lambda: F.one_hot(rows, 1024))
    time_op("bmm", lambda: torch.bmm(images.view(32 * 64, 32, 32), images.view(32 * 64, 32, 32)))
    time_op("group_norm", lambda: F.group_norm(images, 8))
    time_op("embedding_bwd", lambda: F.embedding(tokens, leaf(table)).sum().backward())
    time_op("softmax_bwd", lambda: (leaf(x).softmax(1) * y).sum().backward())
    time_op("index_select_bwd", lambda: leaf(x).index_select(0, rows).sum().backward())
    time_op("pad_reflect_bwd",
            lambda: F.pad(leaf(images), (1, 1, 1, 1), mode="reflect").sum().backward())


if __name__ == "__main__":
    main()
