"""Odeon's own world settings, stored as ``odeon:`` lines of ``WorldInfo.info``.

Webots has no field for the robust contact model, a Solid's boundary-layer
padding or its Klamp't surface parameters. A world keeps them as strings of
``WorldInfo.info`` (a free-text MFString Webots shows and saves unchanged),
so a world saved by Odeon still opens in Webots (decision 0021):

``"odeon: contacts robust maxContacts 20 adaptiveTimeStepping TRUE"``
    the contact model of the whole world (``default`` or ``robust``) and the
    robust model's options (`CONTACT_OPTIONS`);
``"odeon: solid FOOT padding 0.004 kFriction 0.8"``
    a Solid's padding [m] and surface parameters (`SOLID_OPTIONS`); the
    Solid is named by its DEF name, else by its ``name`` path from the top
    Solid (``robot/leg/foot``);
``"odeon: joint KNEE viscousFriction 0.05"``
    a joint's viscous friction [N·m·s/rad or N·s/m] (`JOINT_OPTIONS`), the
    joint named by DEF.

Values are numbers (``inf`` allowed where a quantity may be infinite) or
``TRUE``/``FALSE``. A line that cannot be read is reported (file, line and
column of WorldInfo, the info index and what is wrong) and ignored; the
rest of the world loads. `write_odeon_settings` rewrites the ``odeon:``
lines in place and keeps every other info string.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from engine.world.model import World
from engine.world.node import Node

PREFIX = "odeon:"
CONTACT_MODELS = ("default", "robust")


class Option(NamedTuple):
    """One ``name value`` pair an ``odeon:`` line accepts: the attribute it
    sets, its kind ("float", "int", "bool") and whether inf is allowed."""

    attribute: str
    kind: str
    allow_inf: bool = False


#: ``odeon: contacts <model> ...`` options -> `ContactModelSettings` attributes.
CONTACT_OPTIONS = {
    "maxContacts": Option("max_contacts", "int"),
    "clusterNormalScale": Option("cluster_normal_scale", "float"),
    "adaptiveTimeStepping": Option("adaptive_time_stepping", "bool"),
    "minimumTimeStep": Option("minimum_time_step", "float"),
    "instabilityCorrection": Option("instability_correction", "bool"),
}
#: ``odeon: solid <key> ...`` options -> `SolidContactSettings` attributes.
SOLID_OPTIONS = {
    "padding": Option("padding", "float"),
    "kFriction": Option("k_friction", "float"),
    "kRestitution": Option("k_restitution", "float"),
    "kStiffness": Option("k_stiffness", "float", allow_inf=True),
    "kDamping": Option("k_damping", "float", allow_inf=True),
}
#: ``odeon: joint <DEF> ...`` options -> `JointFrictionSettings` attributes.
JOINT_OPTIONS = {
    "viscousFriction": Option("viscous_friction", "float"),
}


@dataclass(frozen=True)
class ContactModelSettings:
    """The world's contact model and the robust model's options.

    ``model``: "default" (Webots' contacts) or "robust" (Klamp't's);
    ``max_contacts``: contacts kept per pair after clustering;
    ``cluster_normal_scale``: weight of the normal in the clustering features;
    ``adaptive_time_stepping``: roll back and halve a step that makes a pair
    penetrate; ``minimum_time_step`` [s]: the smallest sub-step;
    ``instability_correction``: scale down a body whose kinetic energy jumps.
    """

    model: str = "default"
    max_contacts: int = 20
    cluster_normal_scale: float = 0.1
    adaptive_time_stepping: bool = True
    minimum_time_step: float = 1e-6
    instability_correction: bool = True

    @property
    def robust(self) -> bool:
        return self.model == "robust"


@dataclass(frozen=True)
class SolidContactSettings:
    """A Solid's own robust-contact values; None = the model's default.

    ``padding`` [m]; ``k_friction``, ``k_restitution`` (unitless);
    ``k_stiffness`` [N/m], ``k_damping`` [N·s/m] (inf = rigid)."""

    padding: float | None = None
    k_friction: float | None = None
    k_restitution: float | None = None
    k_stiffness: float | None = None
    k_damping: float | None = None

    def is_empty(self) -> bool:
        return all(getattr(self, o.attribute) is None for o in SOLID_OPTIONS.values())


@dataclass(frozen=True)
class JointFrictionSettings:
    """A joint's viscous friction coefficient (None = 0)."""

    viscous_friction: float | None = None

    def is_empty(self) -> bool:
        return self.viscous_friction is None


@dataclass(frozen=True)
class OdeonSettings:
    """Everything the ``odeon:`` lines of a world say (`read_odeon_settings`).

    ``solids`` and ``joints`` are keyed by the name the line used (a DEF name
    or a Solid name path); ``problems`` are the messages of lines ignored."""

    contacts: ContactModelSettings = ContactModelSettings()
    solids: dict[str, SolidContactSettings] = field(default_factory=dict)
    joints: dict[str, JointFrictionSettings] = field(default_factory=dict)
    problems: tuple[str, ...] = ()


class SettingsLineError(ValueError):
    """One ``odeon:`` line that cannot be read (the message says why)."""


# ---------------------------------------------------------------- reading
def checked_number(number: float, option: Option, name: str, text: str) -> float:
    """``number`` (typed as ``text``) when option ``name`` accepts it: not NaN,
    finite unless the option allows inf, not negative; else `SettingsLineError`."""
    if math.isnan(number) or (math.isinf(number) and not option.allow_inf):
        raise SettingsLineError(f"{name} must be a finite number, got {text!r}")
    if number < 0.0:
        raise SettingsLineError(f"{name} must not be negative, got {text!r}")
    return number


def _value(text: str, option: Option, name: str) -> float | int | bool:
    if option.kind == "bool":
        if text not in ("TRUE", "FALSE"):
            raise SettingsLineError(f"{name} expects TRUE or FALSE, got {text!r}")
        return text == "TRUE"
    try:
        number = float(text)
    except ValueError:
        raise SettingsLineError(f"{name} expects a number, got {text!r}") from None
    checked_number(number, option, name, text)
    if option.kind == "int":
        if number != int(number) or number < 1:
            raise SettingsLineError(f"{name} expects a positive whole number, got {text!r}")
        return int(number)
    return number


def _options(words: list[str], table: dict[str, Option]) -> dict[str, float | int | bool]:
    if len(words) % 2:
        raise SettingsLineError(f"option {words[-1]!r} has no value")
    out: dict[str, float | int | bool] = {}
    for name, text in zip(words[0::2], words[1::2], strict=True):
        option = table.get(name)
        if option is None:
            raise SettingsLineError(f"unknown option {name!r} (expected one of "
                                    f"{', '.join(table)})")
        out[option.attribute] = _value(text, option, name)
    return out


def _read_line(text: str, settings: OdeonSettings) -> OdeonSettings:
    words = text[len(PREFIX):].split()
    if not words:
        raise SettingsLineError("empty odeon: line")
    verb, rest = words[0], words[1:]
    if verb == "contacts":
        if not rest or rest[0] not in CONTACT_MODELS:
            raise SettingsLineError(f"'contacts' expects one of {', '.join(CONTACT_MODELS)}")
        values = _options(rest[1:], CONTACT_OPTIONS)
        return replace(settings, contacts=ContactModelSettings(model=rest[0], **values))
    if verb in ("solid", "joint"):
        if not rest:
            raise SettingsLineError(f"'{verb}' expects a name")
        key, rest = rest[0], rest[1:]
        if verb == "solid":
            solids = dict(settings.solids)
            solids[key] = SolidContactSettings(**_options(rest, SOLID_OPTIONS))
            return replace(settings, solids=solids)
        joints = dict(settings.joints)
        joints[key] = JointFrictionSettings(**_options(rest, JOINT_OPTIONS))
        return replace(settings, joints=joints)
    raise SettingsLineError(f"unknown setting {verb!r} (expected contacts, solid or joint)")


def _where(world: World, info: Node, index: int) -> str:
    src = info.source
    place = f"{world.filename or '<world>'}"
    if src is not None:
        place += f":{src.line}:{src.column}"
    return f"{place}: WorldInfo.info[{index}]"


def read_odeon_settings(world: World) -> OdeonSettings:
    """The ``odeon:`` lines of ``world``'s WorldInfo (defaults when none); a line
    that cannot be read is skipped and described in ``problems``."""
    info = world.world_info
    settings = OdeonSettings()
    if info is None:
        return settings
    problems: list[str] = []
    for index, text in enumerate(info.get("info")):
        if not text.startswith(PREFIX):
            continue
        try:
            settings = _read_line(text, settings)
        except SettingsLineError as exc:
            problems.append(f"{_where(world, info, index)}: {exc}; line ignored: {text!r}")
    return replace(settings, problems=tuple(problems))


# ---------------------------------------------------------------- writing
def _format(value: float | int | bool) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return repr(value) if isinstance(value, float) else str(value)


def _option_words(values: object, table: dict[str, Option], defaults: object) -> list[str]:
    words: list[str] = []
    for name, option in table.items():
        value = getattr(values, option.attribute)
        if value is not None and value != getattr(defaults, option.attribute):
            words += [name, _format(value)]
    return words


def settings_lines(settings: OdeonSettings) -> list[str]:
    """The ``odeon:`` info strings that say ``settings`` (nothing for defaults)."""
    lines = []
    c = settings.contacts
    if c != ContactModelSettings():
        words = [c.model, *_option_words(c, CONTACT_OPTIONS, ContactModelSettings())]
        lines.append(f"{PREFIX} contacts {' '.join(words)}")
    for key, s in settings.solids.items():
        if not s.is_empty():
            words = _option_words(s, SOLID_OPTIONS, SolidContactSettings())
            lines.append(f"{PREFIX} solid {key} {' '.join(words)}")
    for key, j in settings.joints.items():
        if not j.is_empty():
            words = _option_words(j, JOINT_OPTIONS, JointFrictionSettings())
            lines.append(f"{PREFIX} joint {key} {' '.join(words)}")
    return lines


def write_odeon_settings(world: World, settings: OdeonSettings) -> None:
    """Make ``world``'s WorldInfo.info say ``settings``: the ``odeon:`` lines are
    replaced (the first one's place is kept, the rest follow it); other info
    strings stay as they are. Raises ValueError when the world has no WorldInfo."""
    info = world.world_info
    if info is None:
        raise ValueError("write_odeon_settings: the world has no WorldInfo node to hold "
                         "Odeon's settings")
    old = list(info.get("info"))
    first = next((i for i, t in enumerate(old) if t.startswith(PREFIX)), len(old))
    kept = [t for t in old if not t.startswith(PREFIX)]
    before = sum(1 for t in old[:first] if not t.startswith(PREFIX))
    new = kept[:before] + settings_lines(settings) + kept[before:]
    if new != old:
        info.set("info", new)


def with_contact_model(settings: OdeonSettings, model: str) -> OdeonSettings:
    """``settings`` choosing contact model ``model`` (its options kept)."""
    return replace(settings, contacts=replace(settings.contacts, model=model))


def with_solid_settings(settings: OdeonSettings, node: Node,
                        own: SolidContactSettings) -> OdeonSettings:
    """``settings`` where Solid ``node`` has its own values ``own``: a line naming
    it (by DEF name or name path) is replaced; empty values remove it."""
    solids = {key: values for key, values in settings.solids.items()
              if key not in (node.def_name, solid_name_path(node))}
    if not own.is_empty():
        solids[solid_key(node)] = own
    return replace(settings, solids=solids)


# ---------------------------------------------------------------- Solid keys
def solid_name_path(node: Node) -> str:
    """The ``name`` fields of ``node``'s Solid ancestors and itself joined by '/'
    (``robot/leg/foot``)."""
    names = []
    current: Node | None = node
    while current is not None:
        if current.is_a("Solid"):
            names.append(str(current.get("name")))
        current = current.parent
    return "/".join(reversed(names))


def solid_key(node: Node) -> str:
    """The name an ``odeon: solid`` line uses for ``node``: its DEF name, else
    its `solid_name_path`."""
    return node.def_name or solid_name_path(node)


def solid_settings_of(settings: OdeonSettings, node: Node) -> SolidContactSettings:
    """The ``odeon: solid`` values that name ``node`` (by DEF name first, then by
    name path), else empty settings."""
    got = settings.solids.get(node.def_name) if node.def_name else None
    if got is None:
        got = settings.solids.get(solid_name_path(node))
    return got if got is not None else SolidContactSettings()


def unknown_keys(world: World, settings: OdeonSettings) -> list[str]:
    """``odeon: solid``/``joint`` names that match no Solid / joint of ``world``."""
    defs = {n.def_name for n in world.iter_nodes() if not n.is_use and n.def_name}
    paths = {solid_name_path(n) for n in world.solids()}
    missing = [k for k in settings.solids if k not in defs and k not in paths]
    missing += [k for k in settings.joints if k not in defs]
    return missing
