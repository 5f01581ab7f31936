"""Keys held in the 3D view as Webots' ``Keyboard.getKey`` codes (docs/app.md, "Controllers").

`webots_key` maps one Qt key event (key and modifiers, plain ints) to
Webots' code: the arrow, Home/End and Page keys have codes of their own
(`SPECIAL_KEYS`), any other key is its Qt code's low 16 bits (letters are
upper-case ASCII, digits and punctuation ASCII), plus the modifier bits held
at the press (`MODIFIER_BITS`: SHIFT 0x10000, CONTROL 0x20000, ALT 0x40000).
A modifier key pressed alone is no key (Webots reports it combined only).

`HeldKeys` keeps the keys held now, newest first, as Webots lists them: a
press adds its code once, a release removes every code of that key
(whatever the modifiers were), losing focus releases everything.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

#: Webots' masks: the key part of a code and the modifier bits.
KEY_MASK = 0xFFFF
SHIFT, CONTROL, ALT = 0x10000, 0x20000, 0x40000

#: Qt key -> Webots' code of the keys that have one of their own.
SPECIAL_KEYS: dict[int, int] = {
    Qt.Key.Key_End.value: 312, Qt.Key.Key_Home.value: 313,
    Qt.Key.Key_Left.value: 314, Qt.Key.Key_Up.value: 315,
    Qt.Key.Key_Right.value: 316, Qt.Key.Key_Down.value: 317,
    Qt.Key.Key_PageUp.value: 366, Qt.Key.Key_PageDown.value: 367,
}
#: Qt modifier flag -> Webots' modifier bit.
MODIFIER_BITS: dict[int, int] = {
    Qt.KeyboardModifier.ShiftModifier.value: SHIFT,
    Qt.KeyboardModifier.ControlModifier.value: CONTROL,
    Qt.KeyboardModifier.AltModifier.value: ALT,
}
#: Keys that only modify others.
MODIFIER_KEYS = frozenset(k.value for k in (
    Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta,
    Qt.Key.Key_AltGr, Qt.Key.Key_CapsLock, Qt.Key.Key_Super_L, Qt.Key.Key_Super_R))


def modifier_bits(modifiers: int) -> int:
    """Webots' modifier bits of Qt's ``modifiers`` flags (an int)."""
    return sum(bit for flag, bit in MODIFIER_BITS.items() if modifiers & flag)


def key_part(qt_key: int) -> int:
    """Webots' code of ``qt_key`` without modifiers (0: none)."""
    return SPECIAL_KEYS.get(qt_key, qt_key & KEY_MASK)


def webots_key(qt_key: int, modifiers: int = 0) -> int | None:
    """Webots' code of a press of ``qt_key`` with ``modifiers`` held (Qt ints),
    None for a modifier key alone or a key without a code.

    >>> webots_key(Qt.Key.Key_A.value, Qt.KeyboardModifier.ControlModifier.value)
    131137
    """
    if qt_key in MODIFIER_KEYS:
        return None
    key = key_part(qt_key)
    if key == 0:
        return None
    return key + modifier_bits(modifiers)


class HeldKeys:
    """The Webots codes of the keys held now, newest first (module docstring)."""

    def __init__(self) -> None:
        self._codes: list[int] = []

    @property
    def codes(self) -> list[int]:
        """The held codes, newest first (a copy)."""
        return list(self._codes)

    def press(self, qt_key: int, modifiers: int = 0) -> bool:
        """A key went down; True when the held codes changed."""
        code = webots_key(qt_key, modifiers)
        if code is None or code in self._codes:
            return False
        self._codes.insert(0, code)
        return True

    def release(self, qt_key: int) -> bool:
        """A key went up: every code of that key goes; True when the codes changed."""
        key = key_part(qt_key)
        kept = [c for c in self._codes if c & KEY_MASK != key]
        changed = len(kept) != len(self._codes)
        self._codes = kept
        return changed

    def clear(self) -> bool:
        """Nothing is held any more (focus lost); True when something was."""
        changed = bool(self._codes)
        self._codes = []
        return changed
