#!/usr/bin/env python3
"""A labelled stream with a sudden change, a gradual change and a prior shift, and the Bayes oracle's accuracy.

Two classes a, b in d = 2, identity covariance, one event per second of event time (column t, epoch ms from 0):

  segment         events            a ~ N(mu_a, I)   b ~ N(mu_b, I)                     P(b)
  stationary      [0, 30000)        (0, 0)           (2, 0)                              0.5
  sudden          [30000, 60000)    (0, 0)           (0, 2)              (at 30000)      0.5
  gradual         [60000, 70000)    (0, 0)           (0, 2) -> (-2, 0) linearly          0.5
  after gradual   [70000, 100000)   (0, 0)           (-2, 0)                             0.5
  prior shift     [100000, 130000)  (0, 0)           (-2, 0)                             0.2

The oracle knows the true parameters at each event: it predicts b when
log(P(b)/P(a)) + x.mu_b - |mu_b|^2/2 - x.mu_a + |mu_a|^2/2 > 0. Writes the CSV (t,x1,x2,y) and prints the oracle's
accuracy per segment as JSON. Seeded; numpy only.

  python3 docs/drift/make_drift_stream.py drift.csv [--seed 7]
"""
import argparse
import json

import numpy as np

SEGMENTS = [  # name, first event, end (exclusive)
    ("stationary", 0, 30_000),
    ("sudden", 30_000, 60_000),
    ("gradual", 60_000, 70_000),
    ("after-gradual", 70_000, 100_000),
    ("prior-shift", 100_000, 130_000),
]
MU_A = np.array([0.0, 0.0])


def parameters(i):
    """(mu_b, P(b)) at event i."""
    if i < 30_000:
        return np.array([2.0, 0.0]), 0.5
    if i < 60_000:
        return np.array([0.0, 2.0]), 0.5
    if i < 70_000:
        f = (i - 60_000) / 10_000
        return (1 - f) * np.array([0.0, 2.0]) + f * np.array([-2.0, 0.0]), 0.5
    if i < 100_000:
        return np.array([-2.0, 0.0]), 0.5
    return np.array([-2.0, 0.0]), 0.2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    n = SEGMENTS[-1][2]
    hits = np.zeros(n, dtype=bool)
    with open(args.output, "w", encoding="utf-8") as out:
        out.write("t,x1,x2,y\n")
        for i in range(n):
            mu_b, p_b = parameters(i)
            b = rng.random() < p_b
            x = (mu_b if b else MU_A) + rng.standard_normal(2)
            score = np.log(p_b / (1 - p_b)) + x @ mu_b - mu_b @ mu_b / 2 - x @ MU_A + MU_A @ MU_A / 2
            hits[i] = (score > 0) == b
            out.write(f"{i * 1000},{x[0]:.6f},{x[1]:.6f},{'b' if b else 'a'}\n")
    print(json.dumps({name: round(float(hits[lo:hi].mean()), 4) for name, lo, hi in SEGMENTS}))


if __name__ == "__main__":
    main()
