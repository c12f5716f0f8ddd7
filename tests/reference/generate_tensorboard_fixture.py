"""Writes fixtures/tensorboard_events.json: a TensorBoard event file written by TensorBoard's
own code (its Event protobuf and TFRecord writer) with fixed wall times, as hex, for
tests/trainer/tensorboard_logger_test.cpp to compare accel's writer with byte for byte.

  python3 -m venv /tmp/tb && /tmp/tb/bin/pip install tensorboard
  /tmp/tb/bin/python generate_tensorboard_fixture.py
      Writes the fixture, then reads the file back with TensorBoard's EventAccumulator and
      checks the scalars it finds.

  /tmp/tb/bin/python generate_tensorboard_fixture.py --check DIR
      Reads the event files accel wrote into DIR (ACCEL_TENSORBOARD_EXPORT=DIR
      build/tests/trainer_tests --gtest_filter='TensorBoardLogger.*') with TensorBoard's reader
      and prints every scalar: what `tensorboard --logdir DIR` would plot.
"""
import argparse
import io
import json
import os
import tempfile

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from tensorboard.compat.proto import event_pb2, summary_pb2
from tensorboard.summary.writer.record_writer import RecordWriter

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                       "tensorboard_events.json")

# (wall_time, step, tag, value): what the C++ test writes with accel's encoder.
SCALARS = [
    (1700000001.25, 1, "train_loss_epoch", 0.4123),
    (1700000001.25, 1, "eval_loss_epoch", 0.3871),
    (1700000002.5, 2, "train_loss_epoch", 0.30078125),
    (1700000002.5, 2, "eval_accuracy", 0.8602),
    (1700000003.0, 300000, "a/long tag with spaces", -1.0e30),
]
FILE_VERSION_TIME = 1700000000.75


def event_file_bytes():
    buffer = io.BytesIO()
    writer = RecordWriter(buffer)
    writer.write(event_pb2.Event(wall_time=FILE_VERSION_TIME,
                                 file_version="brain.Event:2").SerializeToString())
    for wall_time, step, tag, value in SCALARS:
        summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag,
                                                                       simple_value=value)])
        writer.write(event_pb2.Event(wall_time=wall_time, step=step,
                                     summary=summary).SerializeToString())
    return buffer.getvalue()


def read_scalars(directory):
    accumulator = EventAccumulator(directory)
    accumulator.Reload()
    return {tag: [(event.step, event.value) for event in accumulator.Scalars(tag)]
            for tag in accumulator.Tags()["scalars"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", metavar="DIR")
    args = parser.parse_args()
    if args.check:
        for tag, points in sorted(read_scalars(args.check).items()):
            print(tag, points)
        return
    data = event_file_bytes()
    with tempfile.TemporaryDirectory() as directory:
        with open(os.path.join(directory, "events.out.tfevents.1700000000.host"), "wb") as f:
            f.write(data)
        scalars = read_scalars(directory)
    assert scalars["train_loss_epoch"][1][0] == 2, scalars
    assert len(scalars) == 4, scalars
    with open(FIXTURE, "w") as f:
        json.dump({"file_version_time": FILE_VERSION_TIME,
                   "scalars": [list(s) for s in SCALARS],
                   "event_file_hex": data.hex()}, f, indent=1)
        f.write("\n")
    print(f"wrote {FIXTURE} ({len(data)} bytes of events)")


if __name__ == "__main__":
    main()
