"""Folder trust: a world's physics plugin and robot controllers run only once
the user trusts its folder.

Opening a world imports its plugin (module top level and init) and starts its
robots' controllers: code from the world's folder runs. Odeon asks first
(decision 0017), once per folder:

* the folder is the world's *project*: ``<project>`` of
  ``<project>/worlds/x.wbt``, else the world's own folder;
* nothing is asked when the world names no plugin and no controller, when
  they are not found, or when they come from a trusted place: the
  installation (bundled worlds, plugins and controllers) or a folder of
  ``ODEON_PLUGIN_PATH`` / ``ODEON_CONTROLLER_PATH`` (the user put it there);
  the question names the plugin, else the first such controller;
* the answer ("trust" or "open without running the plugin") is remembered per
  folder in the app's settings (`TrustStore`, a `QSettings`: tests give their
  own file). A declined folder is not asked again; Tools > Trust This Folder
  and Load Plugin trusts it later.

`odeon run` does not ask: the user chose to run the world (``--no-plugin``
opens it without its plugin).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox, QWidget

from engine.controllers import discovery as controller_discovery
from engine.plugins import discovery

#: The installation: the folder holding app/, engine/, resources/ and plugins/.
INSTALL_ROOT = Path(__file__).resolve().parents[1]

#: ``ask(question) -> True`` (trust the folder, run the plugin) or False.
AskTrust = Callable[["TrustQuestion"], bool]


@dataclass(frozen=True)
class TrustQuestion:
    """What the user is asked: may ``plugin`` (source file ``source``; a
    ``kind``: "physics plugin" or "robot controller") of the world in
    ``folder`` run?"""

    folder: Path
    plugin: str
    source: Path
    kind: str = "physics plugin"


def is_inside(path: str | os.PathLike, root: str | os.PathLike) -> bool:
    """True when ``path`` is ``root`` or below it (both resolved)."""
    p, r = Path(path).resolve(), Path(root).resolve()
    return p == r or r in p.parents


def is_installed(path: str | os.PathLike) -> bool:
    """True for a path inside Odeon's installation (`INSTALL_ROOT`)."""
    return is_inside(path, INSTALL_ROOT)


def project_folder(world_path: str | os.PathLike) -> Path:
    """The folder trust is given to: ``<project>`` of ``<project>/worlds/x.wbt``,
    else the world's folder."""
    folder = Path(world_path).resolve().parent
    return folder.parent if folder.name == "worlds" else folder


class TrustStore:
    """Trusted and declined folders, kept under ``trust/`` in a `QSettings`."""

    TRUSTED, DECLINED = "trust/trusted", "trust/declined"

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def _list(self, key: str) -> list[str]:
        value = self.settings.value(key, [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _put(self, key: str, folder: Path, keep: bool) -> None:
        text = str(Path(folder).resolve())
        items = [f for f in self._list(key) if f != text] + ([text] if keep else [])
        self.settings.setValue(key, items)
        self.settings.sync()

    def is_trusted(self, folder: str | os.PathLike) -> bool:
        """True when the user trusted ``folder``."""
        return str(Path(folder).resolve()) in self._list(self.TRUSTED)

    def is_declined(self, folder: str | os.PathLike) -> bool:
        """True when the user chose to open ``folder``'s worlds without their plugin."""
        return str(Path(folder).resolve()) in self._list(self.DECLINED)

    def trust(self, folder: str | os.PathLike) -> None:
        """Remember ``folder`` as trusted (forgets a former "no")."""
        self._put(self.TRUSTED, Path(folder), True)
        self._put(self.DECLINED, Path(folder), False)

    def decline(self, folder: str | os.PathLike) -> None:
        """Remember that ``folder``'s plugins are not to run (and not to ask again)."""
        self._put(self.DECLINED, Path(folder), True)
        self._put(self.TRUSTED, Path(folder), False)


def _plugin_location(world_path: Path, bundled_dir: Path | None,
                     env: Mapping[str, str] | None) -> discovery.PluginLocation | None:
    """The existing plugin source the world names (None: no plugin or not found)."""
    from engine.world import WorldError, read_world

    try:
        info = read_world(str(world_path)).world_info
        name = str(info.get("physics")) if info is not None else ""
        found = discovery.find_plugin(name, world_path, bundled_dir,
                                      dict(env) if env is not None else None)
    except (OSError, WorldError, ValueError):
        return None  # the world or the name is refused later, with its own message
    return found if found is not None and found.exists else None


def _trusted_source(source: Path, bundled_dir: Path | None,
                    env: Mapping[str, str] | None) -> bool:
    """A plugin from the installation, the bundled folder or ODEON_PLUGIN_PATH."""
    roots = [INSTALL_ROOT, bundled_dir or discovery.BUNDLED_DIR]
    env = os.environ if env is None else env
    roots += [Path(e.strip()).expanduser() for e in
              env.get(discovery.PATH_VARIABLE, "").split(os.pathsep) if e.strip()]
    return any(is_inside(source, root) for root in roots)


def _untrusted_controller(world_path: Path, env: Mapping[str, str] | None
                          ) -> controller_discovery.ControllerProgram | None:
    """The first robot controller of the world found outside the trusted places
    (the installation, the bundled controllers, ODEON_CONTROLLER_PATH)."""
    from engine.world import WorldError, read_world

    env_dict = dict(os.environ if env is None else env)
    roots = [INSTALL_ROOT, controller_discovery.BUNDLED_DIR] + [
        Path(p) for p in env_dict.get(controller_discovery.PATH_VARIABLE, "").split(os.pathsep)
        if p]
    try:
        nodes = list(read_world(str(world_path)).iter_nodes())
    except (OSError, WorldError, ValueError):
        return None  # the world is refused later, with its own message
    for node in nodes:
        if node.is_use or node.is_opaque or not node.is_a("Robot"):
            continue
        name = str(node.get("controller"))
        if controller_discovery.runs_nothing(name):
            continue
        try:
            program = controller_discovery.find_controller(name, world_path, None, env_dict)
        except controller_discovery.ControllerNotFound:
            continue
        if not any(is_inside(program.source, root) for root in roots):
            return program
    return None


def trust_question(world_path: str | os.PathLike, store: TrustStore, *,
                   bundled_dir: Path | None = None,
                   env: Mapping[str, str] | None = None) -> TrustQuestion | None:
    """The question to ask before opening ``world_path`` with its plugin and
    controllers, or None when they may run (or there are none) without asking."""
    world = Path(world_path).resolve()
    folder = project_folder(world)
    if is_installed(world) or store.is_trusted(folder):
        return None
    found = _plugin_location(world, bundled_dir, env)
    if found is not None and not _trusted_source(found.source, bundled_dir, env):
        return TrustQuestion(folder, found.name, found.source)
    program = _untrusted_controller(world, env)
    if program is not None:
        return TrustQuestion(folder, program.name, program.source, "robot controller")
    return None


def untrusted_plugin(world_path: str | os.PathLike, store: TrustStore, ask: AskTrust, *,
                     bundled_dir: Path | None = None,
                     env: Mapping[str, str] | None = None) -> TrustQuestion | None:
    """Decide whether the world's plugin and controllers may run, asking ``ask``
    at most once per folder and remembering the answer: the question the user
    declined (now or before: nothing of the folder runs), or None when they may."""
    question = trust_question(world_path, store, bundled_dir=bundled_dir, env=env)
    if question is None:
        return None
    if store.is_declined(question.folder):
        return question
    if ask(question):
        store.trust(question.folder)
        return None
    store.decline(question.folder)
    return question


def not_run_message(question: TrustQuestion) -> str:
    """The console line saying the plugin (and controllers) did not run and how to run them."""
    return (f"The {question.kind} '{question.plugin}' ({question.source}) was not run (nor "
            f"any other code of the world's folder): the folder '{question.folder}' is not "
            "trusted. To run it, use Tools > Trust This Folder and Load Plugin.")


def ask_trust_dialog(parent: QWidget | None) -> AskTrust:
    """The `AskTrust` of the app: a message box with the two choices."""
    def ask(question: TrustQuestion) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, f"Run the world's {question.kind}?",
                          f"This world's {question.kind} '{question.plugin}' is Python code "
                          f"from the folder\n{question.folder}\nwhich you have not trusted "
                          "before. Running it gives it the same rights as Odeon.", parent=parent)
        trust = box.addButton("Trust this folder and run its code",
                              QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Open without running its code", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(trust)
        box.exec()
        return box.clickedButton() == trust
    return ask
