"""Build tests/reference/collision_matrix.json from ode_ref's recorded matrix.

Run by hand (never at test time) from the repository root:
``python3 tests/reference/make_collision_matrix.py <ode_ref>``, where ``<ode_ref>``
is the ODE reference harness (real ODE through ctypes, with its ``out/``).
It copies ODE 0.16.2's contacts for every pair, placement and argument order
and adds, per record, ``exact``: the exact-geometry deepest contact (depth,
normal, first ray hit) computed by ode_ref's compare.py, used where ODE
departs from the geometry (docs/ode-behaviour.md).
"""

from __future__ import annotations

import json
import pathlib
import sys


def main(ode_ref: str) -> None:
    sys.path.insert(0, ode_ref)
    import compare  # noqa: PLC0415 - only importable with ode_ref on the path

    src = pathlib.Path(ode_ref) / "out" / "collision_matrix.json"
    data = json.loads(src.read_text())
    for entry in data["pairs"]:
        for rec in entry["placements"]:
            rec["exact"] = compare.truth(entry["g1"], entry["g2"], rec["pose"])
    out = {k: data[k] for k in ("scene", "params", "results", "pairs")}
    out["note"] = ("ODE 0.16.2 (libode8, double) contacts of ode_ref's collision "
                   "matrix; 'exact' per record from ode_ref compare.truth")
    dst = pathlib.Path(__file__).resolve().parent / "collision_matrix.json"
    dst.write_text(json.dumps(out, indent=None, separators=(",", ":")))
    print(f"wrote {dst}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
