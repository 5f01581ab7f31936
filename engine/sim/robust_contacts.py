"""The robust contact model in a Webots world (docs/robust-contacts.md, "Turning it on").

A world chooses it with the ``odeon: contacts robust`` line of WorldInfo.info
(`engine.world.odeon_settings`), or ``odeon run --contacts robust``. Then
the contacts between Solids are Klamp't's (`engine.contact`) instead of
Webots' defaults, with the same pair rules (`engine.sim.contacts.solids_may_touch`,
bodies joined by a joint never touch):

* each Solid's geoms get a padding: 2.5 mm for a Solid with a body, 0 for a
  static one, or the Solid's ``odeon: solid`` value;
* each Solid has SurfaceParameters: a static Solid the terrain defaults, a
  body in a Robot the robot-link defaults, another body the rigid-object
  defaults (`engine.contact.surface`), each value replaced by the Solid's
  ``odeon: solid`` line where it gives one;
* a pair's surface is the blend of the two; where a ContactProperties node
  matches the two Solids' contactMaterial, its coulombFriction (first
  value; -1 = infinite) and bounce replace the blended friction and
  restitution of that pair (decision 0021);
* pairs that involve a Robot's Solids share that robot's contact budget.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from engine.contact.padding import set_padding
from engine.contact.pipeline import (
    CandidatePairs,
    PairGeoms,
    PairInput,
    RobustContacts,
    RobustOptions,
)
from engine.contact.surface import (
    BODY_SURFACE,
    ROBOT_LINK_SURFACE,
    STATIC_SURFACE,
    BlendedSurface,
    SurfaceParameters,
    blend,
)
from engine.ode.collision.batch import candidate_pairs
from engine.sim.contact_columns import DefaultContactArrays
from engine.sim.contacts import material_pairs, touching_solids
from engine.world.odeon_settings import (
    ContactModelSettings,
    OdeonSettings,
    SolidContactSettings,
    solid_settings_of,
    unknown_keys,
)

#: Padding [m] of a Solid with a body / of a static Solid, unless set (Klamp't's).
BODY_PADDING = 0.0025
STATIC_PADDING = 0.0


@dataclass(frozen=True)
class SolidContact:
    """One Solid's robust-contact values: ``padding`` [m] and ``surface``."""

    padding: float
    surface: SurfaceParameters


def default_solid_contact(rec) -> SolidContact:
    """What a Solid record gets without an ``odeon: solid`` line."""
    if rec.ode_body is None:
        return SolidContact(STATIC_PADDING, STATIC_SURFACE)
    return SolidContact(BODY_PADDING, ROBOT_LINK_SURFACE if rec.robot is not None
                        else BODY_SURFACE)


def solid_contact(rec, own: SolidContactSettings) -> SolidContact:
    """The default values of ``rec`` with those ``own`` gives."""
    base = default_solid_contact(rec)
    surface = base.surface
    changes = {name: getattr(own, name) for name in
               ("k_friction", "k_restitution", "k_stiffness", "k_damping")
               if getattr(own, name) is not None}
    if changes:
        surface = replace(surface, **changes)
    padding = base.padding if own.padding is None else own.padding
    return SolidContact(padding, surface)


class RobustPairs:
    """Per-Solid paddings and surfaces of a model, and the robust contact pairs
    of its space.

    ``model`` the built world; ``settings`` the world's `OdeonSettings`;
    ``warn`` receives the messages about settings lines naming nothing."""

    def __init__(self, model, settings: OdeonSettings, warn: Callable[[str], None]) -> None:
        self.model = model
        self.options: ContactModelSettings = settings.contacts
        self.values: dict[int, SolidContact] = {}
        #: surfaces a plugin gave bodies that belong to no Solid, by id(body)
        self.body_surfaces: dict[int, SurfaceParameters] = {}
        for key in unknown_keys(model.world, settings):
            warn(f"odeon: no Solid or joint named {key!r}; its settings are ignored")
        for rec in model.solids:
            self.values[id(rec)] = solid_contact(rec, solid_settings_of(settings, rec.node))
        if settings.contacts.robust:
            self.apply_paddings()
        self._pair_surface: dict[tuple[int, int], BlendedSurface] = {}
        self._materials = {key: node for key, (node, _) in
                           material_pairs(model.settings.contact_properties).items()}
        self._robots: dict[int, int] = {}

    @property
    def pipeline_options(self) -> RobustOptions:
        """The world's maxContacts and clustering options, as the pipeline takes them."""
        return RobustOptions(self.options.max_contacts, self.options.cluster_normal_scale)

    def apply_paddings(self) -> None:
        """Give every Solid geom its Solid's padding."""
        for rec in self.model.solids:
            pad = self.values[id(rec)].padding
            for leaf in rec.geoms.leaves:
                set_padding(leaf.geom, pad)

    def clear_paddings(self) -> None:
        """Set every Solid geom's padding back to 0 (leaving the robust model)."""
        for rec in self.model.solids:
            for leaf in rec.geoms.leaves:
                set_padding(leaf.geom, 0.0)

    def contact_of(self, rec) -> SolidContact:
        """The padding and surface of a Solid record."""
        return self.values[id(rec)]

    def set_contact(self, rec, value: SolidContact, apply_padding: bool = True) -> None:
        """Change a Solid's padding and surface from the next step on (its geoms'
        padding too when ``apply_padding``: the robust model is on)."""
        self.values[id(rec)] = value
        if apply_padding:
            for leaf in rec.geoms.leaves:
                set_padding(leaf.geom, value.padding)
        self._pair_surface = {k: v for k, v in self._pair_surface.items()
                              if id(rec) not in k}

    def set_body_surface(self, body, surface: SurfaceParameters) -> None:
        """Give ``body`` (the Solids it moves, or a body of the plugin's own) a
        surface from the next contact pass on."""
        recs = [r for r in self.model.solids if r.ode_body is body]
        for rec in recs:
            self.values[id(rec)] = replace(self.values[id(rec)], surface=surface)
        if not recs:
            self.body_surfaces[id(body)] = surface
        self._pair_surface = {}

    def geom_surface(self, geom) -> SurfaceParameters:
        """The surface of the Solid that owns ``geom``; for a geom of no Solid, the
        surface a plugin gave its body, else the rigid-object (body) or terrain
        (static) defaults."""
        rec = self.model.geom_solid.get(geom)
        if rec is not None:
            return self.values[id(rec)].surface
        body = geom.body
        if body is None:
            return STATIC_SURFACE
        return self.body_surfaces.get(id(body), BODY_SURFACE)

    def surface_of(self, r1, r2) -> BlendedSurface:
        """The blended surface of two Solid records (ContactProperties' friction
        and bounce replace the blend's where one matches the two materials)."""
        key = (id(r1), id(r2))
        got = self._pair_surface.get(key)
        if got is None:
            got = blend(self.values[id(r1)].surface, self.values[id(r2)].surface)
            node = self._materials.get((r1.node.get("contactMaterial"),
                                        r2.node.get("contactMaterial")))
            if node is not None:
                mu = node.get("coulombFriction")
                friction = got.mu if not mu else (math.inf if mu[0] == -1.0 else float(mu[0]))
                got = got._replace(mu=friction, restitution=float(node.get("bounce")))
            self._pair_surface[key] = got
        return got

    def _budget_group(self, r1, r2) -> int:
        robot = r1.robot if r1.robot is not None else r2.robot
        if robot is None:
            return -1
        return self._robots.setdefault(id(robot), len(self._robots))

    def pair(self, g1, g2) -> PairInput | None:
        """The robust contact pair of two geoms, or None when the rules keep them
        apart (not Solid geoms, two static Solids, one body, joined...)."""
        solids = touching_solids(self.model, g1, g2)
        if solids is None:
            return None
        r1, r2 = solids
        return PairInput(g1, g2, self.values[id(r1)].padding, self.values[id(r2)].padding,
                         self.surface_of(r1, r2), self._budget_group(r1, r2))

    def space_pairs(self) -> CandidatePairs:
        """The robust pairs among the candidate pairs of the model's space
        (padded bounds), in dSpaceCollide's order, with their gathered geoms."""
        ga, pairs = candidate_pairs(self.model.space)
        geoms = ga.geoms
        out = []
        rows = []
        for k, (i, j) in enumerate(pairs.tolist()):
            p = self.pair(geoms[i], geoms[j])
            if p is not None:
                out.append(p)
                rows.append(k)
        return CandidatePairs(out, PairGeoms(ga, pairs[np.array(rows, dtype=np.int64)]
                                             .reshape(-1, 2)))


def robust_contact_arrays(model, contacts: RobustContacts,
                          with_force: bool) -> DefaultContactArrays:
    """The robust contacts of the last step in `engine.sim.contacts.ContactHandler.
    contact_arrays`' form: pos (m, 3), normal (m, 3), depth (m,), force on the
    joint's first body (m, 3) (None unless ``with_force`` and captured), Solid
    records 1 and 2 (lists of m)."""
    solid_of = model.geom_solid.get
    rec1 = [solid_of(contacts.pairs[k].g1) for k in contacts.pair_of.tolist()]
    rec2 = [solid_of(contacts.pairs[k].g2) for k in contacts.pair_of.tolist()]
    force = None
    if with_force and contacts.forces is not None:
        force = contacts.forces[:, 0:3]
    return DefaultContactArrays(contacts.pos, contacts.normal, contacts.depth, force, rec1, rec2)
