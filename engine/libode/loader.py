"""Loading Debian's ``libode.so.8`` (the real ODE) and starting it up.

The library is loaded once, on first import: ``dInitODE2(0)`` and
``dAllocateODEDataForThread(all)`` are called, then the build is checked to be
double precision (``dCheckConfiguration("ODE_double_precision")``), because
every prototype below passes ``dReal`` as a C double.

:func:`bind` declares one C function's return and argument types and hands it
back; the other modules of this package bind what they wrap through it.
"""

from __future__ import annotations

import ctypes

LIBRARY_NAME = "libode.so.8"
INSTALL_HINT = ("the real ODE (Debian package libode8) is not installed: "
                "run scripts/system-deps.sh --test")
DOUBLE_PRECISION_TOKEN = "ODE_double_precision"
ALLOCATE_ALL_DATA = 0xFFFFFFFF          # dAllocateMaskAll


class LibodeUnavailable(ImportError):
    """The shared library is missing, or it is not a double-precision build."""


def _load() -> ctypes.CDLL:
    try:
        return ctypes.CDLL(LIBRARY_NAME)
    except OSError as exc:
        raise LibodeUnavailable(f"{INSTALL_HINT} ({exc})") from exc


LIB = _load()


def bind(name: str, restype: object, *argtypes: object) -> ctypes._CFuncPtr:
    """The C function ``name`` of libode with its types declared.

    ``restype`` None means ``void``; ``argtypes`` are ctypes types in C order.
    """
    fn = getattr(LIB, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


_init = bind("dInitODE2", ctypes.c_int, ctypes.c_uint)
_allocate = bind("dAllocateODEDataForThread", ctypes.c_int, ctypes.c_uint)
_get_configuration = bind("dGetConfiguration", ctypes.c_char_p)
_check_configuration = bind("dCheckConfiguration", ctypes.c_int, ctypes.c_char_p)


def configuration() -> str:
    """ODE's build configuration string (``dGetConfiguration``), e.g.
    ``"ODE ODE_EXT_trimesh ... ODE_double_precision"``."""
    return _get_configuration().decode()


def is_double_precision() -> bool:
    """True when the loaded build's dReal is a C double."""
    return _check_configuration(DOUBLE_PRECISION_TOKEN.encode()) == 1


if not _init(0) or not _allocate(ALLOCATE_ALL_DATA):
    raise LibodeUnavailable(f"{LIBRARY_NAME}: dInitODE2 / dAllocateODEDataForThread failed")
if not is_double_precision():
    raise LibodeUnavailable(f"{LIBRARY_NAME} is not a double-precision build: {configuration()}")
