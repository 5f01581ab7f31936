"""The main window's pieces for the robust contact model (Klamp't's, issue 15).

- the status bar's permanent `ContactStatusLabel`: "Contacts: default", or
  "Contacts: robust — <status>" with the robust model's status of the last
  step (Normal, AdaptiveTimeStepping, ContactUnreliable, Unstable), the
  non-Normal ones highlighted (`STATUS_STYLES`);
- View menu and tools tool bar toggles (`VIEW_TOGGLES`): Boundary Layers,
  Contact States, Cluster Sizes, which switch the viewport's `OverlayState`.

`RobustContactsUi(window)` adds them to a built `MainWindow` (its status bar,
``actions_``, View menu and ``tools_toolbar``); the window passes every frame
to `show_frame`. The scene tree's editors of the model are in
app/scene_tree/robust_editors.py.
"""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QWidget

from app.viewport import overlay_state as ov
from engine.sim.frame import Frame

#: Style of the status label per robust-model status (Normal: plain).
STATUS_STYLES = {
    "Normal": "",
    "AdaptiveTimeStepping": "color: #1f5fbf; font-weight: bold;",
    "ContactUnreliable": "color: #b36b00; font-weight: bold;",
    "Unstable": "color: #c00000; font-weight: bold;",
}
#: Style of a status this table does not know (e.g. Error).
UNKNOWN_STATUS_STYLE = "color: #c00000; font-weight: bold;"

#: (action name, View menu text, `OverlayState` switch, tool tip).
VIEW_TOGGLES = (
    ("boundary_layers", "Boundary &Layers", ov.BOUNDARY_LAYERS,
     "Draw the robust contact model's padded shells around the boundingObjects"),
    ("contact_states", "Contact &States", ov.CONTACT_STATES,
     "Colour the contacts by state: open grey, sticking green, sliding pink "
     "(orange: state unknown)"),
    ("cluster_sizes", "Cluster Si&zes", ov.CLUSTER_SIZES,
     "Draw each contact larger with the number of contacts clustered into it"),
)


def contact_status_text(frame: Frame) -> str:
    """The status label's text for ``frame``."""
    if frame.contact_model != "robust":
        return f"Contacts: {frame.contact_model}"
    return f"Contacts: robust \u2014 {frame.contact_status}"


def contact_status_style(frame: Frame) -> str:
    """The status label's style sheet for ``frame`` (plain unless robust and not Normal)."""
    if frame.contact_model != "robust":
        return ""
    return STATUS_STYLES.get(frame.contact_status, UNKNOWN_STATUS_STYLE)


class ContactStatusLabel(QLabel):
    """The status bar's contact model and status (see module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Contacts: default", parent)
        self.setToolTip("The contact model of the world (WorldInfo's Contact model) and, "
                        "for the robust model, the status of the last step")

    def show_frame(self, frame: Frame) -> None:
        """Show ``frame``'s contact model and status."""
        text, style = contact_status_text(frame), contact_status_style(frame)
        if text != self.text():
            self.setText(text)
        if style != self.styleSheet():
            self.setStyleSheet(style)


def _view_menu(window: QMainWindow) -> QMenu:
    """The window's View menu."""
    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and menu.title().replace("&", "") == "View":
            return menu
    raise LookupError("the main window has no View menu")


class RobustContactsUi:
    """Adds the status label and view toggles to ``window`` (a built `MainWindow`
    with ``actions_``, ``viewport``, ``tools_toolbar`` and a View menu holding
    the ``plots`` action, before which the toggles go)."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.status_label = ContactStatusLabel(window)
        window.statusBar().addPermanentWidget(self.status_label)
        overlays = window.viewport.renderer.overlays
        before = window.actions_["plots"]
        view = _view_menu(window)
        self.actions: dict[str, QAction] = {}
        for name, text, switch, tip in VIEW_TOGGLES:
            action = QAction(text, window, checkable=True)
            action.setToolTip(tip)
            action.setChecked(overlays.is_on(switch))
            action.toggled.connect(lambda on, s=switch: overlays.set_on(s, on))
            window.actions_[name] = action
            self.actions[name] = action
            view.insertAction(before, action)
            window.tools_toolbar.insertAction(before, action)

    def show_frame(self, frame: Frame) -> None:
        """Show ``frame``'s contact model and status in the status bar."""
        self.status_label.show_frame(frame)
