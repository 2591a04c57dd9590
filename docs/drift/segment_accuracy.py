#!/usr/bin/env python3
"""Prequential accuracy per settled stretch of the drift stream, beside the Bayes oracle's, from replay's files.

  python3 docs/drift/segment_accuracy.py drift.csv stationary.jsonl forgetting.jsonl [--oracle-windows oracle.jsonl]

With --oracle-windows, also writes the oracle's accuracy per window of 600 events in the format of the window
records (one "partition"), for the plot (cli.PrequentialChartMain).

The stream is make_drift_stream.py's (one event per second). A settled stretch is the second half of a segment
(the model has had half a segment to adapt). Window records (per partition) whose window lies inside a stretch are
combined by count; the oracle is scored on the same events. Drift alarms: the first per partition after each change,
as a delay in events from the change's start, and the alarms more than 5,000 events after the end of every change
before them (false alarms).
"""
import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from make_drift_stream import MU_A, parameters  # noqa: E402

STRETCHES = [("stationary", 15_000, 30_000), ("sudden", 45_000, 60_000), ("after-gradual", 85_000, 100_000),
             ("prior-shift", 115_000, 130_000)]
CHANGES = [("sudden", 30_000, 30_000), ("gradual", 60_000, 70_000), ("prior-shift", 100_000, 100_000)]  # start, end
STEP_MS = 1000


def oracle_hits(csv):
    data = np.genfromtxt(csv, delimiter=",", names=True, dtype=None, encoding="utf-8")
    hits = []
    for i, row in enumerate(data):
        mu_b, p_b = parameters(i)
        x = np.array([row["x1"], row["x2"]])
        score = np.log(p_b / (1 - p_b)) + x @ mu_b - mu_b @ mu_b / 2 - x @ MU_A + MU_A @ MU_A / 2
        hits.append((score > 0) == (row["y"] == "b"))
    return np.array(hits)


def summarise(path):
    windows, drifts = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            (windows if r["type"] == "window" else drifts).append(r)
    stretches = {}
    for name, lo, hi in STRETCHES:
        inside = [w for w in windows if w["count"] > 0 and w["windowStart"] >= lo * STEP_MS
                  and w["windowEnd"] <= hi * STEP_MS]
        n = sum(w["count"] for w in inside)
        stretches[name] = round(sum(w["accuracy"] * w["count"] for w in inside) / n, 4) if n else None
    delays, false_alarms = {}, 0
    for d in drifts:
        event = d["eventTime"] // STEP_MS
        before = [c for c in CHANGES if c[1] <= event]
        if not before or event - before[-1][2] > 5_000:
            false_alarms += 1
        else:
            delays.setdefault(before[-1][0], {}).setdefault(d["partition"], event - before[-1][1])
    return {"accuracy": stretches, "delays": {c: sorted(p.values()) for c, p in delays.items()},
            "falseAlarms": false_alarms}


WINDOW_EVENTS = 600


def main():
    args = sys.argv[1:]
    oracle_out = None
    if "--oracle-windows" in args:
        i = args.index("--oracle-windows")
        oracle_out = args[i + 1]
        del args[i:i + 2]
    hits = oracle_hits(args[0])
    if oracle_out:
        with open(oracle_out, "w", encoding="utf-8") as out:
            for lo in range(0, len(hits), WINDOW_EVENTS):
                w = hits[lo:lo + WINDOW_EVENTS]
                out.write(json.dumps({"type": "window", "partition": 0, "windowStart": lo * STEP_MS,
                                      "windowEnd": (lo + WINDOW_EVENTS) * STEP_MS, "count": int(w.size),
                                      "accuracy": float(w.mean())}) + "\n")
    result = {"oracle": {name: round(float(hits[lo:hi].mean()), 4) for name, lo, hi in STRETCHES}}
    for path in args[1:]:
        result[path.rsplit("/", 1)[-1]] = summarise(path)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
