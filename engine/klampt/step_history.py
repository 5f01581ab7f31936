"""The robust stepper's history between steps, as a state part (for getState).

The adaptive stepper compares each sub-step with the last accepted one: the
margin tracker keeps each touching pair's remaining margin and which pairs
penetrate, the instability monitor each body's kinetic energy
(`engine.contact.adaptive`). Klamp't drops both when it reads a state; a
continuation is then only bit-identical when no pair lies deeper than half
its boundary layer (a mesh resting on a soft floor does). Here they are
saved with the state: the tracker's pairs by the positions of their geoms
in the model's geom table (Python object ids differ between simulators),
the monitor's energies as an array (None before the first step).
"""

from __future__ import annotations

from dataclasses import asdict, replace

import numpy as np

from engine.contact.adaptive import PairMargins


def history_record(robust, geoms: list) -> dict:
    """The tracker's and the monitor's state; ``geoms`` the model's geoms in table
    order. Pairs of geoms outside the table (none in a built world) are left out."""
    where = {id(g): k for k, g in enumerate(geoms)}
    tracker = asdict(robust.tracker)
    margins = [[where[a], where[b], m] for (a, b), m in tracker["_margin"].items()
               if a in where and b in where]
    penetrating = sorted([where[a], where[b]] for a, b in tracker["_penetrating"]
                         if a in where and b in where)
    previous = asdict(robust.monitor)["_previous"]
    return {"margins": margins, "penetrating": penetrating, "energies": previous}


def check_history(record: dict, geoms: list, bodies: int) -> tuple:
    """(PairMargins to accept, energies or None) of a `history_record`;
    ValueError when it does not fit this world."""
    n = len(geoms)
    margins = [(int(a), int(b), float(m)) for a, b, m in record["margins"]]
    penetrating = {(int(a), int(b)) for a, b in record["penetrating"]}
    if any(not (0 <= a < n and 0 <= b < n) for a, b, _m in margins):
        raise ValueError("the state's contact history names geoms this world lacks")
    keys = [(id(geoms[a]), id(geoms[b])) for a, b, _m in margins]
    flags = np.array([(a, b) in penetrating for a, b, _m in margins], dtype=np.bool_)
    if int(flags.sum()) != len(penetrating):
        raise ValueError("the state's penetrating pairs are not among its margins")
    accepted = PairMargins(keys, np.array([m for _a, _b, m in margins], dtype=float),
                           np.zeros(len(keys)), flags, np.zeros(len(keys), dtype=np.bool_))
    energies = record["energies"]
    if energies is not None:
        energies = np.asarray(energies, dtype=float)
        if energies.shape != (bodies,):
            raise ValueError("the state's body energies do not fit this world")
    return accepted, energies


def restore_history(robust, checked: tuple) -> None:
    """Put a `check_history` result back (after the stepper forgot its history)."""
    accepted, energies = checked
    robust.tracker.clear()
    robust.tracker.accept(accepted)
    robust.monitor = replace(robust.monitor, _previous=None if energies is None
                             else energies.copy())
