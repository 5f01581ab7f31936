"""`Node`: a scene-tree node seen by a Supervisor (by number; the simulation
holds the node). The node type constants (``Node.ROBOT``...) are Webots'."""

from __future__ import annotations

from .field import Field
from .node_types import NODE_TYPE_NAMES, constant_name, node_type_number


class Node:
    """A node of the world."""

    def __init__(self, robot, node_id: int) -> None:
        self._robot = robot
        self._id = node_id
        self._info = None

    @staticmethod
    def _of(robot, node_id):
        return None if node_id is None else Node(robot, node_id)

    def _details(self) -> dict:
        if self._info is None:
            self._info = self._robot._query("node_info", self._id) or {}
        return self._info

    def __eq__(self, other) -> bool:
        return isinstance(other, Node) and other._id == self._id

    def __hash__(self) -> int:
        return hash(self._id)

    # -- identity
    def getId(self) -> int:
        return self._id

    def getDef(self) -> str:
        return self._details().get("def", "")

    def getTypeName(self) -> str:
        return self._details().get("type_name", "")

    def getBaseTypeName(self) -> str:
        return self._details().get("base_type_name", "")

    def getType(self) -> int:
        return node_type_number(self.getBaseTypeName())

    def isProto(self) -> bool:
        return bool(self._details().get("is_proto", False))

    def getParentNode(self):
        return Node._of(self._robot, self._robot._query("node_parent", self._id))

    # -- fields
    def getField(self, fieldName: str):
        description = self._robot._query("field", self._id, fieldName)
        if description is None:
            return None
        return Field(self._robot, self._id, fieldName, description)

    def getBaseNodeField(self, fieldName: str):
        return self.getField(fieldName)

    def getProtoField(self, fieldName: str):
        return self.getField(fieldName)

    def getNumberOfFields(self) -> int:
        return self._robot._query("field_count_of_node", self._id)

    def getFromProtoDef(self, name: str):
        return Node._of(self._robot, self._robot._query("from_def", name, self._id))

    # -- pose and motion
    def getPosition(self) -> list:
        return self._robot._query("position", self._id)

    def getOrientation(self) -> list:
        return self._robot._query("orientation", self._id)

    def getPose(self, fromNode=None) -> list:
        return self._robot._query("pose", self._id, None if fromNode is None else fromNode._id)

    def getVelocity(self) -> list:
        return self._robot._query("velocity", self._id)

    def setVelocity(self, velocity) -> None:
        self._robot._query("set_velocity", self._id, [float(v) for v in velocity])

    def addForce(self, force, relative: bool) -> None:
        self._robot._query("add_force", self._id, [float(v) for v in force], bool(relative),
                           None)

    def addForceWithOffset(self, force, offset, relative: bool) -> None:
        self._robot._query("add_force", self._id, [float(v) for v in force], bool(relative),
                           [float(v) for v in offset])

    def addTorque(self, torque, relative: bool) -> None:
        self._robot._query("add_torque", self._id, [float(v) for v in torque], bool(relative))

    def resetPhysics(self) -> None:
        self._robot._query("reset_physics", self._id)

    def getCenterOfMass(self) -> list:
        return self._robot._query("center_of_mass", self._id)

    def getContactPoints(self, includeDescendants: bool = False) -> list:
        return self._robot._query("contact_points", self._id, bool(includeDescendants))

    def getStaticBalance(self) -> bool:
        return bool(self._robot._query("static_balance", self._id))

    def setJointPosition(self, position: float, index: int = 1) -> None:
        self._robot._query("set_joint_position", self._id, float(position), int(index))

    # -- life cycle
    def remove(self) -> None:
        self._robot._query("remove", self._id)

    def restartController(self) -> None:
        self._robot._query("restart_controller", self._id)

    def exportString(self) -> str:
        return self._robot._query("export", self._id)

    def saveState(self, stateName: str) -> None:
        self._robot._query("save_state", self._id, str(stateName))

    def loadState(self, stateName: str) -> None:
        self._robot._query("load_state", self._id, str(stateName))

    def setVisibility(self, node, visibility: bool) -> None:
        """Visibility from another viewpoint is not modelled: every node stays visible."""

    def moveViewpoint(self) -> None:
        """The app's viewpoint is the user's: a controller does not move it."""

    # -- Webots' properties
    @property
    def id(self) -> int:
        return self.getId()

    @property
    def def_name(self) -> str:
        return self.getDef()

    @property
    def type_name(self) -> str:
        return self.getTypeName()

    @property
    def base_type_name(self) -> str:
        return self.getBaseTypeName()

    @property
    def type(self) -> int:
        return self.getType()


for _number, _name in enumerate(NODE_TYPE_NAMES):
    setattr(Node, constant_name(_name), _number)
