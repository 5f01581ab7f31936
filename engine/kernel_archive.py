"""The engine's compiled kernels, shipped with the sources (decision 0030).

numba compiles each kernel on first use and keeps the machine code in its
cache. Odeon compiles its kernels for a baseline x86-64 CPU
(``NUMBA_CPU_NAME=generic``, set in ``engine/__init__.py``), so one cache
serves every x86-64 machine; `ARCHIVE` holds that cache for the sources it
was built from. On a fresh cache, importing the engine unpacks it
(`seed_cache`) when it matches this machine, and the first world steps at
once instead of compiling for minutes. When it does not match (other kernel
sources, numba or Python version, CPU target), nothing is unpacked and the
kernels compile as before (`engine/warmup.py`).

What must match (`ArchiveManifest`): the digest of the kernel folders'
sources (`engine.numba_cache.sources_digest`, which also covers kernels
calling kernels in other files), numba's version (its index files carry it
too), the Python cache tag, and numba's code generation target
(``magic_tuple``: LLVM triple, CPU name, CPU features). numba itself then
checks each entry against its source file's content hash and the function's
bytecode, so an entry is only ever used for the code it was compiled from.

numba files a source folder's entries under a cache sub-folder named from
the folder's absolute path (`numba.core.caching._CacheLocator`); the archive
stores them under the folder's path relative to the repository, and
`seed_cache` files them where numba looks for them on this machine.

Rebuilding it after a kernel change: ``scripts/build_kernel_archive.py``
(the test ``tests/engine/test_kernel_archive.py`` fails while it is stale).
"""

from __future__ import annotations

import io
import json
import os
import sys
import tarfile
from dataclasses import asdict, dataclass
from pathlib import Path

from engine.numba_cache import ENGINE_DIR, KERNEL_DIRS, sources_digest
from engine.numba_cache import cache_root as numba_cache_root
from engine.world.writer import write_atomically

REPO_DIR = ENGINE_DIR.parent
#: The shipped cache (tar, xz-compressed): ``manifest.json``, then numba's files.
ARCHIVE = REPO_DIR / "resources" / "kernels" / "engine-kernels.tar.xz"
MANIFEST_NAME = "manifest.json"
#: numba's cache files: an index per kernel, a data file per compiled signature.
CACHE_SUFFIXES = (".nbc", ".nbi")


@dataclass(frozen=True)
class ArchiveManifest:
    """What an archive's kernels were compiled from and for."""

    sources: str        # sources_digest() of the kernel folders
    numba: str          # numba.__version__
    python: str         # sys.implementation.cache_tag, e.g. "cpython-311"
    target: list[str]   # numba's codegen magic tuple: triple, CPU name, features


@dataclass(frozen=True)
class SeedReport:
    """What `seed_cache` did: files written (0 when skipped) and why it skipped."""

    written: int
    skipped_because: str = ""


def current_manifest() -> ArchiveManifest:
    """The manifest an archive must have to serve this process."""
    import numba
    from numba.core.registry import cpu_target

    target = cpu_target.target_context.codegen().magic_tuple()
    return ArchiveManifest(sources=sources_digest(), numba=numba.__version__,
                           python=sys.implementation.cache_tag, target=list(target))


def kernel_source_dirs() -> list[Path]:
    """Every folder under the kernel folders that holds Python sources."""
    dirs = {p.parent for folder in KERNEL_DIRS for p in (ENGINE_DIR / folder).rglob("*.py")}
    return sorted(dirs)


def cache_dir_for(source_dir: Path, cache_root: Path | None) -> Path:
    """Where numba keeps the entries of the kernels defined in ``source_dir``:
    under ``cache_root`` (``NUMBA_CACHE_DIR``) in the sub-folder numba derives
    from the folder's absolute path, or in the folder's ``__pycache__`` when
    there is no cache root."""
    if cache_root is None:
        return source_dir / "__pycache__"
    from numba.core.caching import _CacheLocator

    return cache_root / _CacheLocator.get_suitable_cache_subpath(str(source_dir / "x.py"))


def _write_cache_file(path: Path, data: bytes) -> None:
    """One cache file, written whole (another process may read the same cache)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, lambda temp: Path(temp).write_bytes(data))


def read_manifest(archive: Path = ARCHIVE) -> ArchiveManifest:
    """The manifest of ``archive`` (OSError, tarfile.TarError or ValueError when unreadable)."""
    with tarfile.open(archive, "r:xz") as tar:
        member = tar.extractfile(MANIFEST_NAME)
        if member is None:
            raise ValueError(f"{archive}: no {MANIFEST_NAME}")
        return ArchiveManifest(**json.loads(member.read()))


def manifest_mismatch(shipped: ArchiveManifest, here: ArchiveManifest) -> str:
    """Why ``shipped`` cannot serve ``here`` ("" when it can)."""
    checks = (("kernel sources changed since it was built", shipped.sources, here.sources),
              ("another numba version", shipped.numba, here.numba),
              ("another Python", shipped.python, here.python),
              ("another CPU target", shipped.target, here.target))
    for label, theirs, ours in checks:
        if theirs != ours:
            return f"{label} ({theirs} != {ours})"
    return ""


def _member_destination(name: str, cache_root: Path | None) -> Path:
    """Where the archive member ``name`` (``<folder>/<file>``, the folder
    relative to the repository) goes on this machine."""
    folder, _, file_name = name.rpartition("/")
    source_dir = (REPO_DIR / folder).resolve()
    if (ENGINE_DIR not in source_dir.parents or not file_name.endswith(CACHE_SUFFIXES)
            or "/" in file_name):
        raise ValueError(f"unexpected archive member {name!r}")
    return cache_dir_for(source_dir, cache_root) / file_name


def seed_cache(archive: Path = ARCHIVE, cache_root: Path | None = None) -> SeedReport:
    """Unpack ``archive`` into numba's cache (``cache_root``, default
    ``NUMBA_CACHE_DIR`` or the source folders' ``__pycache__``) if its
    manifest matches this process; files already there are kept. Data files
    are written before the index files that name them."""
    if not archive.is_file():
        return SeedReport(0, f"no {archive.name}")
    cache_root = cache_root if cache_root is not None else numba_cache_root()
    try:
        why = manifest_mismatch(read_manifest(archive), current_manifest())
        if why:
            return SeedReport(0, why)
        written = 0
        with tarfile.open(archive, "r:xz") as tar:
            members = [m for m in tar.getmembers() if m.isfile() and m.name != MANIFEST_NAME]
            targets = [_member_destination(m.name, cache_root) for m in members]
            indexes: list[tuple[Path, bytes]] = []
            for member, path in zip(members, targets, strict=True):  # in stream order
                data = tar.extractfile(member)
                if path.exists() or data is None:
                    continue
                if path.suffix == ".nbi":  # written last: an index names its data files
                    indexes.append((path, data.read()))
                else:
                    _write_cache_file(path, data.read())
                written += 1
        for path, data in indexes:
            _write_cache_file(path, data)
    except (OSError, tarfile.TarError, ValueError, TypeError, KeyError) as exc:
        return SeedReport(0, f"{archive.name} unreadable: {exc}")
    return SeedReport(written)


_import_seed: list[SeedReport] = []


def seed_at_import() -> None:
    """`seed_cache` for ``engine/__init__.py`` (a cache starting afresh),
    unless ``ODEON_KERNEL_ARCHIVE=0``; `import_seed_report` keeps the result."""
    if os.environ.get("ODEON_KERNEL_ARCHIVE", "1") != "0":
        _import_seed.append(seed_cache())


def import_seed_report() -> SeedReport | None:
    """What importing the engine unpacked in this process (None: nothing tried,
    the cache was current)."""
    return _import_seed[-1] if _import_seed else None


def pack(cache_root: Path, archive: Path = ARCHIVE) -> int:
    """Write ``archive`` from the engine's entries in ``cache_root`` (a cache
    filled by this process's numba target: `current_manifest`); returns the
    number of files packed. Members are sorted and dated 0, so the same cache
    gives the same bytes."""
    manifest = json.dumps(asdict(current_manifest()), indent=1).encode()
    files: list[tuple[str, Path]] = []
    for source_dir in kernel_source_dirs():
        entries = cache_dir_for(source_dir, cache_root)
        folder = source_dir.relative_to(REPO_DIR).as_posix()
        files += [(f"{folder}/{p.name}", p) for p in sorted(entries.glob("*"))
                  if p.suffix in CACHE_SUFFIXES]
    archive.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:xz", preset=9) as tar:
        for name, data in [(MANIFEST_NAME, manifest)] + [(n, p.read_bytes()) for n, p in files]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    write_atomically(archive, lambda temp: Path(temp).write_bytes(buffer.getvalue()))
    return len(files)
