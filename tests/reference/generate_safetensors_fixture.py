"""Writes fixtures/pytorch_mlp.safetensors, the interchange fixture for accel's safetensors I/O,
and checks files written by accel against PyTorch.

  python3 generate_safetensors_fixture.py
      Writes the state_dict of torch.nn.Sequential(Linear(4, 3), ReLU(), Linear(3, 2)) built
      after torch.manual_seed(0), with safetensors.torch.save_file (deterministic bytes).
      tests/nn/serialize_test.cpp loads it into the equivalent accel Sequential.

  ACCEL_SAFETENSORS_EXPORT=/tmp/accel_mlp.safetensors \\
      build/tests/nn_tests --gtest_filter='Serialize.PytorchFixture*'
  python3 generate_safetensors_fixture.py --check /tmp/accel_mlp.safetensors
      The reverse direction: the test saves the accel model (loaded from the fixture) with
      Module::save to that path; --check reads it with PyTorch's safetensors, loads it strictly
      into the torch model and asserts every tensor equals the seed-0 model's bit for bit.
"""
import argparse
import os
import sys

import torch
from safetensors.torch import load_file, save_file

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                       "pytorch_mlp.safetensors")


def reference_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))


def check(path):
    expected = reference_model().state_dict()
    loaded = load_file(path)
    model = reference_model()
    model.load_state_dict(loaded, strict=True)
    for name, tensor in expected.items():
        got = loaded[name]
        if got.dtype != tensor.dtype or not torch.equal(got, tensor):
            sys.exit(f"{path}: tensor {name} differs from PyTorch's")
    print(f"{path}: {len(loaded)} tensors load into torch and match PyTorch's model")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", metavar="PATH", help="verify a file written by accel")
    args = parser.parse_args()
    if args.check:
        check(args.check)
        return
    state = {name: t.contiguous() for name, t in reference_model().state_dict().items()}
    save_file(state, FIXTURE, metadata={"format": "pt"})
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
