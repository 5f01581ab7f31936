"""Re-record the reference scene data in tests/reference from the real ODE.

Runs the scene definitions of tests/engine/scenes.py and
tests/engine/collision_scenes.py on the real ODE (engine.libode over Debian's
libode8; install it with scripts/system-deps.sh --test) and compares the
fields the scene tests read with the committed files, or writes them in.
Fields no scene test reads (long series, timings, descriptions) are kept as
they are in each file; see docs/decisions/0019-real-ode-backend.md.

    python scripts/record_reference.py                 # compare, exit 1 on a difference
    python scripts/record_reference.py --write         # put the new values in the files
    python scripts/record_reference.py --out DIR       # write the updated files to DIR
    python scripts/record_reference.py chain bounce    # only these reference files

Run from the repository root with the project's Python.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.engine import live_reference  # noqa: E402 - needs the root on sys.path


def main(argv: list[str] | None = None) -> int:
    """Compare (default) or write the recorded fields; 0 when nothing differs
    or everything was written, 1 when a comparison found a difference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="reference files (default: all of "
                        + ", ".join(live_reference.RECORDS) + ")")
    parser.add_argument("--write", action="store_true",
                        help="write the recorded values into tests/reference/*.json")
    parser.add_argument("--out", type=pathlib.Path,
                        help="write the updated files into this directory instead")
    args = parser.parse_args(argv)
    names = args.names or list(live_reference.RECORDS)
    unknown = sorted(set(names) - set(live_reference.RECORDS))
    if unknown:
        parser.error(f"unknown reference files: {', '.join(unknown)}")
    target = args.out if args.out is not None else (live_reference.REFERENCE_DIR
                                                    if args.write else None)
    differing = 0
    for name in names:
        path = live_reference.REFERENCE_DIR / f"{name}.json"
        committed = json.loads(path.read_text())
        recorded = live_reference.record(name)
        diffs = live_reference.differences(committed, recorded)
        total = live_reference.leaves(recorded)
        print(f"{name}: {total - len(diffs)} of {total} recorded values bit-identical")
        for line in diffs:
            print(f"    {line}")
        differing += bool(diffs)
        if target is not None:
            text = live_reference.dumps(live_reference.overlay(committed, recorded))
            target.mkdir(parents=True, exist_ok=True)
            out = target / f"{name}.json"
            if not out.exists() or out.read_text() != text:
                out.write_text(text)
                print(f"    wrote {out}")
    return 1 if differing and target is None else 0


if __name__ == "__main__":
    sys.exit(main())
