"""Undoable edits of the robust contact model's world settings (no widgets here).

Odeon keeps the contact model and a Solid's padding and surface parameters
as ``odeon:`` lines of WorldInfo.info (engine/world/odeon_settings.py,
decision 0021). An edit here is a WorldInfo.info `SetField` (so it saves with
the world, follows Reset's baseline and undoes like any field edit) whose
engine effect applies the change to the running simulation at once:
``sim.set_contact_model(model)`` or ``sim.set_solid_contact(node, own)``;
undo sets the old lines back and applies the old values.

`parse_solid_value` turns the text of an editor into a value (empty = the
model's default) with a message a user can act on for bad input.
"""

from __future__ import annotations

from typing import Any

from app.scene_tree.commands import Effect, SetFieldWithEffectCommand
from app.scene_tree.controller import SceneTreeController
from engine.world import Node, World
from engine.world.odeon_settings import (
    CONTACT_MODELS,
    SOLID_OPTIONS,
    OdeonSettings,
    SettingsLineError,
    SolidContactSettings,
    checked_number,
    read_odeon_settings,
    solid_settings_of,
    with_contact_model,
    with_solid_settings,
    write_odeon_settings,
)

INFO_FIELD = "info"


class SettingInputError(ValueError):
    """Text typed into a robust-contact editor that is not a valid value."""


def parse_solid_value(option: str, text: str) -> float | None:
    """The value of `SOLID_OPTIONS` entry ``option`` typed as ``text``: None when
    empty (the default), a float otherwise; ``inf`` only where the option
    allows it (kStiffness, kDamping). Raises `SettingInputError` saying why."""
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise SettingInputError(f"{option}: {text!r} is not a number (leave it empty for "
                                "the default)") from None
    try:
        return checked_number(value, SOLID_OPTIONS[option], option, text)
    except SettingsLineError as exc:
        raise SettingInputError(str(exc)) from None


def info_lines(world: World, settings: OdeonSettings) -> list[str]:
    """WorldInfo.info of ``world`` as `write_odeon_settings` would make it say
    ``settings`` (computed on a copy: ``world`` is not changed)."""
    scratch = World()
    info = Node("WorldInfo")
    info.set(INFO_FIELD, list(world.world_info.get(INFO_FIELD)))
    scratch.add_node(info)
    write_odeon_settings(scratch, settings)
    return list(info.get(INFO_FIELD))


def contact_model_of(world: World) -> str:
    """The contact model ``world``'s ``odeon:`` lines choose ("default" or "robust")."""
    return read_odeon_settings(world).contacts.model


def solid_values_of(world: World, node: Node) -> SolidContactSettings:
    """The Solid's own robust-contact values (None fields = the model's default)."""
    return solid_settings_of(read_odeon_settings(world), node)


class RobustSettingsEditor:
    """Pushes the undoable ``odeon:`` edits on ``controller``'s undo stack."""

    def __init__(self, controller: SceneTreeController) -> None:
        self.controller = controller

    def _info(self) -> Node | None:
        world = self.controller.world
        info = world.world_info if world is not None else None
        if info is None:
            self.controller.report_error("the world has no WorldInfo node to hold Odeon's "
                                         "contact settings: add one first")
        return info

    def _push(self, settings: OdeonSettings, text: str,
              effects: tuple[Effect, Effect]) -> bool:
        controller = self.controller
        info = self._info()
        if info is None or controller.sink is None:
            return False
        old = list(info.get(INFO_FIELD))
        new = info_lines(controller.world, settings)
        if new == old:
            return True
        baseline_of = getattr(controller.sink, "baseline_value", None)
        old_baseline = baseline_of(info, INFO_FIELD) if baseline_of is not None else old
        command = SetFieldWithEffectCommand(controller.sink, controller.report_error, info,
                                            INFO_FIELD, (old, new, old_baseline), effects,
                                            text)
        controller.undo_stack.push(command)
        return not command.failed

    def set_contact_model(self, model: str) -> bool:
        """Make the world use contact model ``model`` ("default" or "robust"),
        undoably; False (with a message) when refused."""
        if model not in CONTACT_MODELS:
            self.controller.report_error(f"unknown contact model {model!r} (expected one of "
                                         f"{', '.join(CONTACT_MODELS)})")
            return False
        if self._info() is None:
            return False
        settings = read_odeon_settings(self.controller.world)
        old_model = settings.contacts.model
        new = with_contact_model(settings, model)
        return self._push(new, f"Contact model {model}",
                          (_contact_model_effect(old_model), _contact_model_effect(model)))

    def set_solid_values(self, node: Node, own: SolidContactSettings) -> bool:
        """Give Solid ``node`` its own padding and surface values ``own`` (None fields:
        the default), undoably; False (with a message) when refused."""
        if self._info() is None:
            return False
        settings = read_odeon_settings(self.controller.world)
        old_own = solid_settings_of(settings, node)
        return self._push(with_solid_settings(settings, node, own),
                          f"Odeon contact of {node.label()}",
                          (_solid_effect(node, old_own), _solid_effect(node, own)))


def _contact_model_effect(model: str) -> Effect:
    def effect(sim: Any) -> None:
        sim.set_contact_model(model)

    return effect


def _solid_effect(node: Node, own: SolidContactSettings) -> Effect:
    def effect(sim: Any) -> None:
        sim.set_solid_contact(node, own)

    return effect
