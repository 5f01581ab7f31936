"""The kernels shipped with the sources (engine/kernel_archive.py, decision 0030)."""

from __future__ import annotations

import io
import json
import os
import platform
import subprocess
import sys
import tarfile
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from engine.kernel_archive import (
    ARCHIVE,
    ENGINE_DIR,
    MANIFEST_NAME,
    cache_dir_for,
    current_manifest,
    manifest_mismatch,
    pack,
    read_manifest,
    seed_cache,
)
from engine.numba_cache import sources_digest

ROOT = Path(__file__).resolve().parents[2]
REBUILD = "rebuild it: .venv/bin/python -m engine.kernel_archive (about 4 minutes)"


def test_the_shipped_archive_was_built_from_these_kernel_sources() -> None:
    """A kernel edit without a rebuild would send every fresh install back to
    minutes of compiling."""
    shipped = read_manifest()
    assert shipped.sources == sources_digest(), f"{ARCHIVE} is stale: {REBUILD}"
    here = current_manifest()
    assert shipped.numba == here.numba, f"{ARCHIVE} was built with numba {shipped.numba}"
    assert shipped.target[0].startswith("x86_64") and shipped.target[1:] == ["generic", ""]
    if platform.machine() == "x86_64":  # the machines it serves: this process's target
        assert shipped.target == here.target


def _fits_here() -> str:
    """Why the shipped archive cannot serve this process ("" when it can)."""
    return manifest_mismatch(read_manifest(), current_manifest())


def test_a_fresh_cache_seeded_from_the_archive_steps_a_world_without_compiling(
        tmp_path: Path) -> None:
    """In a new process: importing the engine unpacks the archive into an empty
    cache, and the default world then steps without a single compilation
    (where the archive does not fit, nothing is unpacked and it compiles)."""
    probe = (
        "import json\n"
        "from engine.kernel_archive import import_seed_report\n"
        "from engine.numba_cache import watch_compiles\n"
        "from engine.sim.simulation import Simulation\n"
        "seen = []\n"
        "with watch_compiles(seen.append):\n"
        "    sim = Simulation('resources/worlds/default.wbt', stepper='quickstep')\n"
        "    for _ in range(20):\n"
        "        sim.step()\n"
        "report = import_seed_report()\n"
        "print(json.dumps({'written': report.written, 'why': report.skipped_because,\n"
        "                  'compiled': sorted({e.kernel for e in seen})}))\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("ODEON_NUMBA_CACHE_CHECK", "ODEON_KERNEL_ARCHIVE", "NUMBA_CPU_NAME",
                        "NUMBA_CPU_FEATURES")}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    why_not = _fits_here()
    if why_not:  # another Python or CPU: nothing unpacked, the kernels compile
        assert result["written"] == 0 and why_not in result["why"], result
        assert result["compiled"], result
        return
    assert result["why"] == "" and result["written"] > 100, result
    assert result["compiled"] == [], result


def _fake_cache(root: Path) -> dict[Path, bytes]:
    """Two index files and a data file for engine/ode under ``root``."""
    folder = cache_dir_for(ENGINE_DIR / "ode", root)
    folder.mkdir(parents=True)
    files = {folder / "step.kernel-10.py311.nbi": b"index",
             folder / "step.kernel-10.py311.1.nbc": b"data",
             folder / "other-3.py311.nbi": b"other"}
    for path, data in files.items():
        path.write_bytes(data)
    (folder / "ignored.txt").write_text("not numba's")
    return files


def test_pack_then_seed_files_entries_where_numba_looks_here(tmp_path: Path) -> None:
    """The archive names folders relative to the repository; seeding maps them
    to this machine's cache layout and keeps files already there."""
    files = _fake_cache(tmp_path / "built")
    archive = tmp_path / "k.tar.xz"
    assert pack(tmp_path / "built", archive) == 3
    with tarfile.open(archive, "r:xz") as tar:
        names = tar.getnames()
    assert names[0] == MANIFEST_NAME
    assert "engine/ode/step.kernel-10.py311.nbi" in names and len(names) == 4
    target = cache_dir_for(ENGINE_DIR / "ode", tmp_path / "fresh")
    target.mkdir(parents=True)
    (target / "other-3.py311.nbi").write_bytes(b"mine")
    report = seed_cache(archive, tmp_path / "fresh")
    assert report.written == 2 and report.skipped_because == ""
    assert (target / "step.kernel-10.py311.nbi").read_bytes() == b"index"
    assert (target / "step.kernel-10.py311.1.nbc").read_bytes() == b"data"
    assert (target / "other-3.py311.nbi").read_bytes() == b"mine"
    assert not list(target.glob("*.tmp")) and len(files) == 3
    assert pack(tmp_path / "built", tmp_path / "again.tar.xz") == 3
    assert (tmp_path / "again.tar.xz").read_bytes() == archive.read_bytes()  # reproducible


def _archive(path: Path, manifest: dict, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:xz") as tar:
        for name, data in [(MANIFEST_NAME, json.dumps(manifest).encode()), *members.items()]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize("field, value, why", [
    ("sources", "0" * 64, "kernel sources changed"),
    ("numba", "0.1.0", "another numba version"),
    ("python", "cpython-399", "another Python"),
    ("target", ["x86_64-unknown-linux-gnu", "skylake", "+avx2"], "another CPU target"),
])
def test_a_mismatching_archive_is_not_unpacked(tmp_path: Path, field: str, value,
                                               why: str) -> None:
    manifest = asdict(replace(current_manifest(), **{field: value}))
    archive = _archive(tmp_path / "k.tar.xz", manifest, {"engine/ode/a-1.py311.nbi": b"x"})
    report = seed_cache(archive, tmp_path / "cache")
    assert report.written == 0 and why in report.skipped_because
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("name", ["../../evil.nbi", "engine/ode/../../../evil.nbi",
                                  "app/x-1.py311.nbi", "engine/ode/run.sh"])
def test_an_archive_member_outside_the_engine_cache_is_refused(tmp_path: Path,
                                                               name: str) -> None:
    archive = _archive(tmp_path / "k.tar.xz", asdict(current_manifest()), {name: b"x"})
    report = seed_cache(archive, tmp_path / "cache")
    assert report.written == 0 and "unexpected archive member" in report.skipped_because
    assert not (tmp_path / "evil.nbi").exists() and not (ROOT / "evil.nbi").exists()


def test_a_missing_or_broken_archive_is_reported_not_raised(tmp_path: Path) -> None:
    assert "no nothing.tar.xz" in seed_cache(tmp_path / "nothing.tar.xz").skipped_because
    (tmp_path / "broken.tar.xz").write_bytes(b"not xz")
    assert "unreadable" in seed_cache(tmp_path / "broken.tar.xz").skipped_because


def test_the_engine_compiles_for_a_baseline_cpu_by_default() -> None:
    """One cache for every x86-64 machine: importing the engine sets numba's
    target to the generic CPU with no extra features, unless one was set."""
    probe = ("import engine\n"
             "from engine.kernel_archive import current_manifest\n"
             "print(current_manifest().target[1:])\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")}
    env["ODEON_NUMBA_CACHE_CHECK"] = "0"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["['generic',", "'']"], done.stderr[-2000:]
    done = subprocess.run([sys.executable, "-c", "import numba\n" + probe], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["['generic',", "'']"], done.stderr[-2000:]  # numba first
    env["NUMBA_CPU_NAME"] = "znver1"  # a user's own choice stays
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.startswith("['znver1',"), done.stderr[-2000:]
