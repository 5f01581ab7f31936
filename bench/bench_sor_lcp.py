"""Time ``sor_lcp`` on a hanging chain: 200 bodies, 200 ball joints = 600 rows.

Run: ``.venv/bin/python bench/bench_sor_lcp.py [repeats]``.  Prints the median
wall time of one call (20 iterations, sor_w 1.3) after a warm-up call that
triggers numba compilation.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ode.kernels.bundles import Bodies, Rows, StepConfig
from engine.ode.solvers.sor_lcp import sor_lcp, sor_work_size


def skew(a: np.ndarray) -> np.ndarray:
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def chain(nb: int = 200, link: float = 0.1) -> dict:
    """Bodies hang along -z; joint k joins body k-1 (or the world) to body k."""
    rng = np.random.default_rng(0)
    m = 3 * nb
    J = np.zeros((m, 12))
    jb = np.empty((m, 2), np.int32)
    half = np.array([0.0, 0.0, 0.5 * link])
    for k in range(nb):
        rows = slice(3 * k, 3 * k + 3)
        J[rows, :3] = np.eye(3)
        J[rows, 3:6] = -skew(half)  # anchor at the top of body k
        jb[rows, 0] = k
        jb[rows, 1] = k - 1 if k > 0 else -1
        if k > 0:
            J[rows, 6:9] = -np.eye(3)
            J[rows, 9:12] = skew(-half)  # bottom of body k-1
    invI = np.tile(np.eye(3) * 50.0, (nb, 1, 1))
    return {
        "m": m, "J": J, "jb": jb, "c": rng.normal(size=m) * 1e-3, "cfm": np.full(m, 1e-5),
        "lo": np.full(m, -np.inf), "hi": np.full(m, np.inf), "findex": np.full(m, -1, np.int32),
        "bodies": np.arange(nb, dtype=np.int32), "invmass": np.ones(nb), "invI": invI,
        "lvel": rng.normal(size=(nb, 3)) * 0.1, "avel": rng.normal(size=(nb, 3)) * 0.1,
        "facc": np.tile([0.0, 0.0, -9.81], (nb, 1)), "tacc": np.zeros((nb, 3)),
    }


def main(repeats: int = 200) -> None:
    s = chain()
    nb = len(s["bodies"])
    lam = np.zeros(s["m"])
    cforce = np.zeros((nb, 6))
    work = np.empty(sor_work_size(s["m"], nb))
    state = np.zeros(1, np.uint64)
    rows = Rows(s["J"], s["c"], s["cfm"], s["lo"], s["hi"], s["findex"])
    bodies = Bodies(np.zeros((nb, 3)), np.zeros((nb, 3, 3)), np.zeros((nb, 4)), s["lvel"],
                    s["avel"], s["facc"], s["tacc"], s["invmass"])
    config = StepConfig(True, False, 0.01, 20, 1.3, np.zeros(3))
    seg = np.array([0, s["m"]], dtype=np.int64)   # one island of all the rows

    def call() -> None:
        lam[:] = 0.0
        sor_lcp(rows, s["jb"], seg, s["bodies"], bodies, s["invI"], config, state, lam, cforce,
                work)

    call()  # compile / load the cache
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    print(f"sor_lcp chain m={s['m']} nb={nb} iterations=20: "
          f"median {np.median(times) * 1e6:.1f} us over {repeats} calls")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
