"""The recorded scenes give the same bits whatever numerics the CPU selects.

Each variant runs tests/engine/determinism_scenes.py in a fresh subprocess
with one environment setting that changes which machine code computes the
numbers (decision 0012):

* ``OPENBLAS_CORETYPE`` Haswell, SkylakeX, Prescott: OpenBLAS's kernels;
* ``NUMBA_CPU_NAME`` this machine's own CPU and features: the instructions
  numba compiles the kernels to; with the in-process run, compiled for the
  baseline x86-64 CPU (no FMA/AVX, the engine's default: decision 0030), that
  makes two numba targets (the host target has its own cache folder, so its
  first run compiles every kernel the scenes use: minutes);
* ``NPY_DISABLE_CPU_FEATURES``: numpy's SIMD loops without AVX2/AVX-512;
* ``GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA``: glibc's libm variants
  without FMA (a probe checks that glibc honours it on this machine).

Every variant must reproduce tests/reference/determinism_portable.json bit
for bit (that file is checked against the in-process run too).
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import subprocess
import sys
from typing import NamedTuple

import pytest

from tests.engine import determinism_scenes

ROOT = pathlib.Path(__file__).resolve().parents[2]
NO_AVX_NUMPY = "X86_V4 AVX512_ICL AVX512_SPR X86_V3"
NO_FMA_LIBM = "glibc.cpu.hwcaps=-AVX2,-FMA"

class _HostCpu(NamedTuple):
    """LLVM's name and feature string for this machine's CPU."""

    name: str
    features: str


def _host_cpu() -> _HostCpu:
    import llvmlite.binding as llvm

    return _HostCpu(llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten())


_HOST_CPU = _host_cpu()

VARIANTS = {
    "openblas_haswell": {"OPENBLAS_CORETYPE": "Haswell"},
    "openblas_skylakex": {"OPENBLAS_CORETYPE": "SkylakeX"},
    "openblas_prescott": {"OPENBLAS_CORETYPE": "Prescott"},
    "numba_host": {"NUMBA_CPU_NAME": _HOST_CPU.name, "NUMBA_CPU_FEATURES": _HOST_CPU.features,
                   "NUMBA_CACHE_DIR": str(ROOT / ".numba_cache" / "host-cpu")},
    "numpy_no_avx": {"NPY_DISABLE_CPU_FEATURES": NO_AVX_NUMPY},
    "libm_no_fma": {"GLIBC_TUNABLES": NO_FMA_LIBM},
}


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES",
                        "NPY_DISABLE_CPU_FEATURES", "GLIBC_TUNABLES")}
    env.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))
    env.update(extra)
    return env


def _run(code: list[str], extra: dict[str, str], timeout: float = 1800) -> str:
    res = subprocess.run([sys.executable, *code], cwd=ROOT, env=_env(extra),
                         capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, f"{extra}: exit {res.returncode}\n{res.stderr[-3000:]}"
    return res.stdout


def _compare(got: dict[str, list[str]], want: dict[str, list[str]]) -> list[str]:
    """One line per scene whose values differ from the recording."""
    bad = []
    for name, values in want.items():
        mine = got.get(name, [])
        if len(mine) != len(values):
            bad.append(f"{name}: {len(mine)} values, recorded {len(values)}")
            continue
        diff = [i for i, (a, b) in enumerate(zip(mine, values, strict=True)) if a != b]
        if diff:
            worst = max(abs(float.fromhex(mine[i]) - float.fromhex(values[i])) for i in diff)
            bad.append(f"{name}: {len(diff)} of {len(values)} values differ "
                       f"(largest by {worst:.3g})")
    return bad


@pytest.fixture(scope="module")
def recording() -> dict[str, list[str]]:
    return json.loads(determinism_scenes.REF.read_text())


def test_in_process_run_matches_the_recording(recording):
    bad = _compare(determinism_scenes.run_all(), recording)
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_scenes_are_bit_identical_under(variant: str, recording) -> None:
    out = _run(["-m", "tests.engine.determinism_scenes"], VARIANTS[variant])
    bad = _compare(json.loads(out), recording)
    assert not bad, f"under {VARIANTS[variant]}:\n" + "\n".join(bad)


_PROBE = ("import math, json, random\n"
          "r = random.Random(5)\n"
          "xs = [r.uniform(-10, 10) for _ in range(20000)]\n"
          "print(json.dumps([math.sin(x).hex() for x in xs] + [math.exp(x).hex() for x in xs]))")


def test_the_libm_variant_really_changes_libm_results():
    """Without this, the libm_no_fma variant above would test nothing: glibc
    must pick other sin/exp code under the tunable (on a CPU with FMA)."""
    cpu = pathlib.Path("/proc/cpuinfo").read_text() if os.path.exists("/proc/cpuinfo") else ""
    flags = next((ln for ln in cpu.splitlines() if ln.startswith("flags")), "")
    if " fma" not in flags:
        pytest.skip("this CPU has no FMA: glibc has no FMA variant to switch away from")
    plain = json.loads(_run(["-c", _PROBE], {}))
    no_fma = json.loads(_run(["-c", _PROBE], {"GLIBC_TUNABLES": NO_FMA_LIBM}))
    differ = sum(a != b for a, b in zip(plain, no_fma, strict=True))
    assert differ > 0, "GLIBC_TUNABLES hwcaps had no effect on math.sin/exp"
    assert not math.isnan(float.fromhex(plain[0]))
