"""`Field`: a node's field read and written through the simulation.

Getters are answered at once; setters take effect before the next step.
Values are lists for vectors, ``[x, y, z, angle]`` for rotations, `Node`
objects for node fields. Odeon accepts tuples and ints where Webots'
wrapper insists on lists and floats (docs/controllers.md)."""

from __future__ import annotations

from . import _errors

_TYPE_NAMES = ("SFBool", "SFInt32", "SFFloat", "SFVec2f", "SFVec3f", "SFRotation", "SFColor",
               "SFString", "SFNode")


def field_type_number(type_name: str) -> int:
    """Webots' field type constant of ``"SFFloat"``, ``"MFNode"``... (0 if unknown)."""
    base = "SF" + type_name[2:]
    if base not in _TYPE_NAMES:
        return 0
    number = _TYPE_NAMES.index(base) + 1
    return number | 0x10 if type_name.startswith("MF") else number


class Field:
    """One field of one node (``node.getField(name)``)."""

    NO_FIELD = 0x00
    SF_BOOL = 0x01
    SF_INT32 = 0x02
    SF_FLOAT = 0x03
    SF_VEC2F = 0x04
    SF_VEC3F = 0x05
    SF_ROTATION = 0x06
    SF_COLOR = 0x07
    SF_STRING = 0x08
    SF_NODE = 0x09
    MF = 0x10
    MF_BOOL = 0x11
    MF_INT32 = 0x12
    MF_FLOAT = 0x13
    MF_VEC2F = 0x14
    MF_VEC3F = 0x15
    MF_ROTATION = 0x16
    MF_COLOR = 0x17
    MF_STRING = 0x18
    MF_NODE = 0x19

    def __init__(self, robot, node_id: int, name: str, type_name: str) -> None:
        self._robot = robot
        self._node_id = node_id
        self._name = name
        self._type_name = type_name

    def getName(self) -> str:
        return self._name

    def getType(self) -> int:
        return field_type_number(self._type_name)

    def getTypeName(self) -> str:
        return self._type_name

    def getCount(self) -> int:
        if not self._type_name.startswith("MF"):
            return -1
        return self._robot._query("field_count", self._node_id, self._name)

    # -- reading
    def _get(self, expected: str, index=None):
        if self._type_name != expected:
            _errors.error(f"wb_supervisor_field_get_{expected.lower()}() called on a "
                          f"{self._type_name} field.")
            return None
        value = self._robot._query("field_get", self._node_id, self._name, index)
        if expected.endswith("Node"):
            return self._robot._node_of(value)
        return value

    def getSFBool(self):
        return self._get("SFBool")

    def getSFInt32(self):
        return self._get("SFInt32")

    def getSFFloat(self):
        return self._get("SFFloat")

    def getSFVec2f(self):
        return self._get("SFVec2f")

    def getSFVec3f(self):
        return self._get("SFVec3f")

    def getSFRotation(self):
        return self._get("SFRotation")

    def getSFColor(self):
        return self._get("SFColor")

    def getSFString(self):
        return self._get("SFString")

    def getSFNode(self):
        return self._get("SFNode")

    def getMFBool(self, index: int):
        return self._get("MFBool", index)

    def getMFInt32(self, index: int):
        return self._get("MFInt32", index)

    def getMFFloat(self, index: int):
        return self._get("MFFloat", index)

    def getMFVec2f(self, index: int):
        return self._get("MFVec2f", index)

    def getMFVec3f(self, index: int):
        return self._get("MFVec3f", index)

    def getMFRotation(self, index: int):
        return self._get("MFRotation", index)

    def getMFColor(self, index: int):
        return self._get("MFColor", index)

    def getMFString(self, index: int):
        return self._get("MFString", index)

    def getMFNode(self, index: int):
        return self._get("MFNode", index)

    # -- writing
    def _set(self, expected: str, value, index=None, op: str = "field_set") -> None:
        if self._type_name != expected:
            _errors.error(f"wb_supervisor_field_set_{expected.lower()}() called on a "
                          f"{self._type_name} field.")
            return
        if isinstance(value, tuple):
            value = list(value)
        self._robot._query(op, self._node_id, self._name, index, value)

    def setSFBool(self, value: bool) -> None:
        self._set("SFBool", bool(value))

    def setSFInt32(self, value: int) -> None:
        self._set("SFInt32", int(value))

    def setSFFloat(self, value: float) -> None:
        self._set("SFFloat", float(value))

    def setSFVec2f(self, values) -> None:
        self._set("SFVec2f", [float(v) for v in values])

    def setSFVec3f(self, values) -> None:
        self._set("SFVec3f", [float(v) for v in values])

    def setSFRotation(self, values) -> None:
        self._set("SFRotation", [float(v) for v in values])

    def setSFColor(self, values) -> None:
        self._set("SFColor", [float(v) for v in values])

    def setSFString(self, value: str) -> None:
        self._set("SFString", str(value))

    def setMFBool(self, index: int, value: bool) -> None:
        self._set("MFBool", bool(value), index)

    def setMFInt32(self, index: int, value: int) -> None:
        self._set("MFInt32", int(value), index)

    def setMFFloat(self, index: int, value: float) -> None:
        self._set("MFFloat", float(value), index)

    def setMFVec2f(self, index: int, values) -> None:
        self._set("MFVec2f", [float(v) for v in values], index)

    def setMFVec3f(self, index: int, values) -> None:
        self._set("MFVec3f", [float(v) for v in values], index)

    def setMFRotation(self, index: int, values) -> None:
        self._set("MFRotation", [float(v) for v in values], index)

    def setMFColor(self, index: int, values) -> None:
        self._set("MFColor", [float(v) for v in values], index)

    def setMFString(self, index: int, value: str) -> None:
        self._set("MFString", str(value), index)

    def insertMFBool(self, index: int, value: bool) -> None:
        self._set("MFBool", bool(value), index, "field_insert")

    def insertMFInt32(self, index: int, value: int) -> None:
        self._set("MFInt32", int(value), index, "field_insert")

    def insertMFFloat(self, index: int, value: float) -> None:
        self._set("MFFloat", float(value), index, "field_insert")

    def insertMFVec2f(self, index: int, values) -> None:
        self._set("MFVec2f", [float(v) for v in values], index, "field_insert")

    def insertMFVec3f(self, index: int, values) -> None:
        self._set("MFVec3f", [float(v) for v in values], index, "field_insert")

    def insertMFRotation(self, index: int, values) -> None:
        self._set("MFRotation", [float(v) for v in values], index, "field_insert")

    def insertMFColor(self, index: int, values) -> None:
        self._set("MFColor", [float(v) for v in values], index, "field_insert")

    def insertMFString(self, index: int, value: str) -> None:
        self._set("MFString", str(value), index, "field_insert")

    def removeMF(self, index: int) -> None:
        if not self._type_name.startswith("MF"):
            _errors.error("wb_supervisor_field_remove_mf() called on a SF field.")
            return
        self._robot._query("field_remove", self._node_id, self._name, index)

    def importMFNodeFromString(self, position: int, nodeString: str) -> None:
        if self._type_name != "MFNode":
            _errors.error("wb_supervisor_field_import_mf_node_from_string() called on a "
                          f"{self._type_name} field.")
            return
        self._robot._query("import_node", self._node_id, self._name, int(position),
                           str(nodeString))

    def importSFNodeFromString(self, nodeString: str) -> None:
        if self._type_name != "SFNode":
            _errors.error("wb_supervisor_field_import_sf_node_from_string() called on a "
                          f"{self._type_name} field.")
            return
        self._robot._query("import_node", self._node_id, self._name, None, str(nodeString))

    def removeSF(self) -> None:
        self._robot._query("field_remove", self._node_id, self._name, None)

    def removeMFNode(self, index: int) -> None:
        self.removeMF(index)

    def enableSFTracking(self, samplingPeriod: int) -> None:
        """Getters always read the current value in Odeon: nothing to enable."""

    def disableSFTracking(self) -> None:
        """Getters always read the current value in Odeon: nothing to disable."""

    @property
    def name(self) -> str:
        return self.getName()

    @property
    def type(self) -> int:
        return self.getType()

    @property
    def count(self) -> int:
        return self.getCount()
