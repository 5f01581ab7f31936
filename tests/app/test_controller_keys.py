"""Qt keys -> Webots ``Keyboard.getKey`` codes (app/viewport/keys.py), against the
codes of Webots' keyboard.h (also the constants of Odeon's controller package)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.viewport.keys import ALT, CONTROL, SHIFT, HeldKeys, webots_key
from engine.controllers.runtime.controller.keyboard import Keyboard

K = Qt.Key
M = Qt.KeyboardModifier


def key(qt_key: Qt.Key, *mods: Qt.KeyboardModifier) -> int | None:
    flags = 0
    for mod in mods:
        flags |= mod.value
    return webots_key(qt_key.value, flags)


def test_letters_are_upper_case_ascii_and_digits_ascii() -> None:
    assert key(K.Key_A) == ord("A") == 65
    assert key(K.Key_Z) == ord("Z")
    assert key(K.Key_0) == ord("0") and key(K.Key_9) == ord("9")
    assert key(K.Key_Space) == ord(" ")
    assert key(K.Key_Plus) == ord("+")


def test_special_keys_have_webots_codes() -> None:
    assert key(K.Key_Up) == Keyboard.UP == 315
    assert key(K.Key_Down) == Keyboard.DOWN == 317
    assert key(K.Key_Left) == Keyboard.LEFT == 314
    assert key(K.Key_Right) == Keyboard.RIGHT == 316
    assert key(K.Key_Home) == Keyboard.HOME == 313
    assert key(K.Key_End) == Keyboard.END == 312
    assert key(K.Key_PageUp) == Keyboard.PAGEUP == 366
    assert key(K.Key_PageDown) == Keyboard.PAGEDOWN == 367


def test_modifiers_are_added() -> None:
    assert (SHIFT, CONTROL, ALT) == (Keyboard.SHIFT, Keyboard.CONTROL, Keyboard.ALT)
    assert key(K.Key_B, M.ControlModifier) == Keyboard.CONTROL + ord("B")
    assert key(K.Key_Up, M.ShiftModifier) == 0x10000 + 315
    assert key(K.Key_A, M.ShiftModifier, M.ControlModifier, M.AltModifier) \
        == 0x70000 + 65
    assert key(K.Key_A, M.ShiftModifier) & Keyboard.KEY == ord("A")
    # modifiers Webots has no bit for are ignored
    assert key(K.Key_A, M.KeypadModifier) == 65


def test_modifier_keys_alone_are_no_key() -> None:
    for modifier_key in (K.Key_Shift, K.Key_Control, K.Key_Alt, K.Key_Meta):
        assert key(modifier_key) is None
    assert key(K.Key_Shift, M.ShiftModifier) is None


def test_held_keys_newest_first_released_per_key() -> None:
    held = HeldKeys()
    assert held.press(K.Key_Up.value)
    assert held.press(K.Key_A.value, M.ShiftModifier.value)
    assert held.codes == [SHIFT + 65, 315]
    assert not held.press(K.Key_Up.value)  # already held: no change, listed once
    assert not held.press(K.Key_Shift.value, M.ShiftModifier.value)
    assert held.press(K.Key_A.value)  # the same key without Shift is another code
    assert held.codes == [65, SHIFT + 65, 315]
    # releasing A releases it whatever modifiers it was pressed with
    assert held.release(K.Key_A.value)
    assert held.codes == [315]
    assert not held.release(K.Key_B.value)
    assert held.clear() and held.codes == []
    assert not held.clear()
