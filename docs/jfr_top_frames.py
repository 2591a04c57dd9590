#!/usr/bin/env python3
"""Summarise JFR execution samples of a `gda-streams bench` run by stage and by frame.

Usage: jfr print --stack-depth 96 --events jdk.ExecutionSample rec.jfr | python3 docs/jfr_top_frames.py [TOP [THREAD]]

With THREAD, only threads whose name contains it are counted (e.g. "-prequential-" for one variant of
`bench --variant`, whose application ids are bench-<run>-r<round>-<variant>-training).

Samples are grouped by the benchmark stage that owns the thread (from the Kafka Streams thread names, which
contain the application id bench-<run>-<stage>); warm-up threads are left out. For each stage it prints
how many samples fell on each thread kind, the top "self" frames (where the CPU was) and the top "inclusive"
frames (how much of the stage's stream-thread time was spent under a method), and the share of stream-thread
samples in gda-streams code (the first frame from the top that is gda-streams' or Kafka's is ours; for the
passthrough that is its processor, i.e. Jackson's tree under it). A client's own threads (the producer's network
thread is named after its stream thread) count as the client's, not as stream threads.
"""
import collections
import re
import sys

TOP = int(sys.argv[1]) if len(sys.argv) > 1 else 25
ONLY = sys.argv[2] if len(sys.argv) > 2 else None
STAGES = ("passthrough", "training", "scoring")


def samples(lines):
    thread, frames, in_stack = None, [], False
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("jdk.ExecutionSample"):
            thread, frames, in_stack = None, [], False
        elif "sampledThread = " in line:
            thread = line.split('"')[1]
        elif line.strip().startswith("stackTrace = ["):
            in_stack = True
        elif in_stack and line.strip() == "]":
            in_stack = False
            yield thread, frames
        elif in_stack and line.strip() != "...":
            frames.append(re.sub(r"\s+line: \d+.*$", "", line.strip()))


def stage_of(thread):
    if re.search(r"-warmup\d*-", thread):  # bench-<run>-warmup<pass>-…, bench-<run>-warmup-model-…
        return None
    for stage in STAGES:
        if "-" + stage + "-" in thread:
            return stage
    return None


def kind_of(thread):
    # A client's own threads are named after the stream thread that owns the client
    # ("kafka-producer-network-thread | <app>-StreamThread-1-producer"): their kind is the client's.
    if thread.startswith("kafka-producer-network-thread"):
        return "producer"
    for kind in ("GlobalStreamThread", "StreamThread", "producer", "consumer", "admin"):
        if kind in thread:
            return kind
    return "other"


def ours(frames):
    """1 when the first frame from the top that is gda-streams' or Kafka's is gda-streams' (JDK frames count for
    their caller: a HashMap lookup under our code is ours, under Kafka's Kafka's), else 0."""
    for frame in frames:
        if frame.startswith("io.gdastreams"):
            return 1
        if frame.startswith("org.apache.kafka"):
            return 0
    return 0


def method(frame):
    return re.sub(r"\(.*\)$", "", frame)


by_stage = collections.defaultdict(lambda: {"kinds": collections.Counter(), "self": collections.Counter(),
                                            "incl": collections.Counter(), "n": 0, "ours": 0})
for thread, frames in samples(sys.stdin):
    stage = stage_of(thread or "")
    if stage is None or not frames or (ONLY and ONLY not in thread):
        continue
    s = by_stage[stage]
    s["kinds"][kind_of(thread)] += 1
    if kind_of(thread) != "StreamThread":
        continue
    s["n"] += 1
    s["ours"] += ours(frames)
    s["self"][method(frames[0])] += 1
    for m in set(method(f) for f in frames):
        s["incl"][m] += 1

for stage in STAGES:
    s = by_stage.get(stage)
    if not s:
        continue
    n = s["n"]
    print(f"== {stage}: samples by thread kind {dict(s['kinds'])}; stream-thread samples {n}; "
          f"in gda-streams code {100.0 * s['ours'] / max(n, 1):.1f} %")
    print("-- self (top frame)")
    for m, c in s["self"].most_common(TOP):
        print(f"{100.0 * c / n:6.1f}%  {m}")
    print("-- inclusive (io.gdastreams, jackson, kafka frames)")
    shown = 0
    for m, c in s["incl"].most_common():
        if m.startswith(("io.gdastreams", "com.fasterxml", "org.apache.kafka")):
            print(f"{100.0 * c / n:6.1f}%  {m}")
            shown += 1
            if shown == TOP:
                break
    print()
