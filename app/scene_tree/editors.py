"""Per-type editors of single values, as in Webots' field editor panel.

Every editor is a `ValueEditor`: ``set_value(value)`` shows a value without
emitting anything; user input emits ``edited(value, merge)`` where ``merge``
is True for spin-box steps (arrows, wheel: consecutive ones merge into one
undo step).
Numbers apply on Enter or on arrow steps (keyboard tracking off), text on
Enter or focus loss, check boxes at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QCompleter,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

INT32 = (-(2**31), 2**31 - 1)
FLOAT_LIMIT = 1e9
FLOAT_DECIMALS = 6  # editing precision (display in the tree uses fewer digits)


class ValueEditor(QWidget):
    """Base of the single-value editors."""

    edited = Signal(object, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._value: Any = None
        self.layout_ = QHBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)

    @property
    def value(self) -> Any:
        """The value shown."""
        return self._value

    def set_value(self, value: Any) -> None:
        """Show ``value`` (no signal)."""
        self._value = value
        self._show(value)

    def _show(self, value: Any) -> None:
        """Put ``value`` into the widgets (each editor overrides this)."""

    def _emit(self, value: Any, merge: bool) -> None:
        if value != self._value:
            self.edited.emit(value, merge)


class BoolEditor(ValueEditor):
    """SFBool: a check box (Space toggles)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.check = QCheckBox("TRUE", self)
        self.layout_.addWidget(self.check)
        self.check.toggled.connect(lambda on: self._emit(bool(on), False))

    def _show(self, value: Any) -> None:
        self.check.blockSignals(True)
        self.check.setChecked(bool(value))
        self.check.setText("TRUE" if value else "FALSE")
        self.check.blockSignals(False)


class _Stepping:
    """Spin-box mixin: ``stepping`` is True while an arrow or wheel step changes the value
    (so steps can merge into one undo entry while typed values do not)."""

    stepping = False

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt name
        self.stepping = True
        try:
            super().stepBy(steps)  # type: ignore[misc]
        finally:
            self.stepping = False


class StepSpinBox(_Stepping, QDoubleSpinBox):
    """A double spin box telling arrow/wheel steps (``stepping``) from typed values."""


class IntStepSpinBox(_Stepping, QSpinBox):
    """An int spin box telling arrow/wheel steps (``stepping``) from typed values."""


def _float_spin(parent: QWidget, low: float = -FLOAT_LIMIT, high: float = FLOAT_LIMIT,
                step: float = 0.01) -> StepSpinBox:
    spin = StepSpinBox(parent)
    spin.setDecimals(FLOAT_DECIMALS)
    spin.setRange(low, high)
    spin.setSingleStep(step)
    spin.setKeyboardTracking(False)
    spin.setMinimumWidth(80)
    return spin


class IntEditor(ValueEditor):
    """SFInt32: a spin box over the 32-bit range."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spin = IntStepSpinBox(self)
        self.spin.setRange(*INT32)
        self.spin.setKeyboardTracking(False)
        self.layout_.addWidget(self.spin)
        self.spin.valueChanged.connect(lambda v: self._emit(int(v), self.spin.stepping))

    def _show(self, value: Any) -> None:
        self.spin.blockSignals(True)
        self.spin.setValue(int(value))
        self.spin.blockSignals(False)


class VectorEditor(ValueEditor):
    """SFFloat (one box), SFVec2f, SFVec3f, SFRotation (x y z angle), SFColor (r g b).

    Only the component the user changed is replaced; the others keep their
    exact value (spin boxes round to `FLOAT_DECIMALS`).
    """

    def __init__(self, labels: Sequence[str], scalar: bool = False,
                 low: float = -FLOAT_LIMIT, high: float = FLOAT_LIMIT,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scalar = scalar
        self.spins: list[StepSpinBox] = []
        for i, label in enumerate(labels):
            if label:
                self.layout_.addWidget(QLabel(label, self))
            spin = _float_spin(self, low, high)
            spin.valueChanged.connect(lambda v, i=i: self._component(i, v))
            self.layout_.addWidget(spin)
            self.spins.append(spin)

    def _component(self, i: int, v: float) -> None:
        merge = self.spins[i].stepping
        self.spins[i].lineEdit().setModified(False)
        if self.scalar:
            self._emit(float(v), merge)
            return
        value = list(self._value)
        value[i] = float(v)
        self._emit(tuple(value), merge)

    def _show(self, value: Any) -> None:
        values = (value,) if self.scalar else value
        for spin, v in zip(self.spins, values, strict=False):
            if spin.hasFocus() and spin.lineEdit().isModified():
                continue  # the user is typing here: live updates must not clobber it
            spin.blockSignals(True)
            spin.setValue(float(v))
            spin.blockSignals(False)


class ColorEditor(VectorEditor):
    """SFColor: r g b boxes in [0, 1] and a swatch opening a colour dialog."""

    #: the colour chooser (tests replace it); returns an invalid QColor on cancel
    choose_color: Callable[..., QColor] = staticmethod(QColorDialog.getColor)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(("r", "g", "b"), low=0.0, high=1.0, parent=parent)
        self.swatch = QPushButton(self)
        self.swatch.setFixedWidth(36)
        self.swatch.setToolTip("Choose a colour")
        self.layout_.addWidget(self.swatch)
        self.swatch.clicked.connect(self.pick_color)

    def _show(self, value: Any) -> None:
        super()._show(value)
        color = QColor.fromRgbF(*(min(max(float(c), 0.0), 1.0) for c in value))
        self.swatch.setStyleSheet(f"background-color: {color.name()};")

    def pick_color(self) -> None:
        """Open the colour dialog; a chosen colour is applied."""
        start = QColor.fromRgbF(*(min(max(float(c), 0.0), 1.0) for c in self._value))
        color = type(self).choose_color(start, self, "Select colour")
        if color.isValid():
            self._emit((color.redF(), color.greenF(), color.blueF()), False)


class StringEditor(ValueEditor):
    """SFString: a line edit (Enter or focus loss applies); choices complete."""

    select_requested = Signal()

    def __init__(self, choices: Sequence[str] | None = None, selectable: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.line = QLineEdit(self)
        self.layout_.addWidget(self.line)
        if choices:
            self.line.setCompleter(QCompleter(list(choices), self))
            self.line.setToolTip("One of: " + ", ".join(choices))
        self.select_button: QPushButton | None = None
        if selectable:
            self.select_button = QPushButton("Select...", self)
            self.layout_.addWidget(self.select_button)
            self.select_button.clicked.connect(self.select_requested)
        self.line.editingFinished.connect(self._finished)

    def _finished(self) -> None:
        self.line.setModified(False)
        self._emit(self.line.text(), False)

    def _show(self, value: Any) -> None:
        if self.line.hasFocus() and self.line.isModified():
            return  # the user is typing: do not clobber the text
        self.line.blockSignals(True)
        self.line.setText("" if value is None else str(value))
        self.line.blockSignals(False)


def make_sf_editor(type_name: str, choices: Sequence[str] | None = None,
                   selectable: bool = False, parent: QWidget | None = None) -> ValueEditor:
    """The editor of one SF (non-node) value of ``type_name``."""
    if type_name == "SFBool":
        return BoolEditor(parent)
    if type_name == "SFInt32":
        return IntEditor(parent)
    if type_name == "SFFloat":
        return VectorEditor(("",), scalar=True, parent=parent)
    if type_name == "SFVec2f":
        return VectorEditor(("x", "y"), parent=parent)
    if type_name == "SFVec3f":
        return VectorEditor(("x", "y", "z"), parent=parent)
    if type_name == "SFRotation":
        return VectorEditor(("x", "y", "z", "angle"), parent=parent)
    if type_name == "SFColor":
        return ColorEditor(parent)
    if type_name == "SFString":
        return StringEditor(choices, selectable, parent)
    raise ValueError(f"no value editor for {type_name}")


#: the value a new MF item starts with, per SF type
NEW_ITEM = {"SFBool": False, "SFInt32": 0, "SFFloat": 0.0, "SFVec2f": (0.0, 0.0),
            "SFVec3f": (0.0, 0.0, 0.0), "SFRotation": (0.0, 0.0, 1.0, 0.0),
            "SFColor": (1.0, 1.0, 1.0), "SFString": ""}
