"""Stale compiled kernels are dropped when any engine source changes."""

from __future__ import annotations

import pathlib

from engine import numba_cache


def test_digest_changes_with_any_source(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    d1 = numba_cache.sources_digest(tmp_path)
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")
    assert numba_cache.sources_digest(tmp_path) != d1


def test_engine_digest_covers_the_kernel_folders_only(tmp_path):
    for folder in ("ode", "contact", "sim"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.py").write_text("x = 1\n")
    d1 = numba_cache.sources_digest(tmp_path, numba_cache.KERNEL_DIRS)
    (tmp_path / "sim" / "m.py").write_text("x = 2\n")      # no kernel there
    assert numba_cache.sources_digest(tmp_path, numba_cache.KERNEL_DIRS) == d1
    (tmp_path / "contact" / "m.py").write_text("x = 2\n")  # kernels there
    assert numba_cache.sources_digest(tmp_path, numba_cache.KERNEL_DIRS) != d1


def test_every_kernel_lives_in_a_kernel_folder():
    """A numba kernel outside KERNEL_DIRS would be compiled from a stale cache."""
    outside = [p for p in numba_cache.ENGINE_DIR.rglob("*.py")
               if p.relative_to(numba_cache.ENGINE_DIR).parts[0] not in numba_cache.KERNEL_DIRS
               and p.name != "numba_cache.py" and "njit" in p.read_text()]
    assert outside == []


def test_stale_cache_is_removed_and_fresh_one_kept(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    (cache / "sub").mkdir(parents=True)
    (cache / "kernel.nbi").write_text("old")
    (cache / "sub" / "kernel.nbc").write_text("old")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    monkeypatch.delenv("ODEON_NUMBA_CACHE_CHECK", raising=False)  # the check on, whatever the caller set
    assert numba_cache.invalidate_if_stale() is True
    assert not (cache / "kernel.nbi").exists()
    assert not (cache / "sub" / "kernel.nbc").exists()
    assert (cache / "sub").is_dir()            # directories stay for concurrent writers
    stamp = pathlib.Path(cache) / numba_cache.STAMP_NAME
    assert stamp.read_text() == numba_cache.stamp_text()
    (cache / "kernel.nbi").write_text("fresh")
    assert numba_cache.invalidate_if_stale() is False
    assert (cache / "kernel.nbi").exists()
    monkeypatch.setenv("NUMBA_CPU_NAME", "another-cpu")  # another target: afresh
    assert numba_cache.invalidate_if_stale() is True
    assert not (cache / "kernel.nbi").exists()


def test_watch_compiles_reports_each_kernel_compiled_inside_the_block():
    import numba

    @numba.njit(cache=False)
    def inner(x):
        return x + 1.0

    @numba.njit(cache=False)
    def outer(x):
        return inner(x) * 2.0

    reports: list[numba_cache.CompileEvent] = []
    with numba_cache.watch_compiles(reports.append):
        assert outer(1.0) == 4.0
        assert outer(2.0) == 6.0  # compiled already: nothing reported
    names = [r.kernel.rsplit(".", 1)[-1] for r in reports]
    assert names == ["outer", "inner", "inner", "outer"]  # inner compiles inside outer
    assert [r.busy for r in reports] == [True, True, True, False]
    assert reports[-1].started == reports[-1].finished == 2

    @numba.njit(cache=False)
    def later(x):
        return x

    later(1.0)  # outside the block: not reported
    assert len(reports) == 4
