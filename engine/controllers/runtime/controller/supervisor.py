"""`Supervisor`: a Robot (``supervisor TRUE``) that reads and changes the world."""

from __future__ import annotations

from . import _errors
from .node import Node
from .robot import Robot


class Supervisor(Robot):
    """Scene-tree access and simulation control."""

    SIMULATION_MODE_PAUSE = 0
    SIMULATION_MODE_REAL_TIME = 1
    SIMULATION_MODE_FAST = 2

    def __init__(self) -> None:
        super().__init__()
        if Robot.created is self and not self.getSupervisor():
            _errors.error("Supervisor used on a robot whose 'supervisor' field is FALSE: "
                          "set it to TRUE.")

    def _node_query(self, query: str, *args):
        return Node._of(self, self._query(query, *args))

    def getRoot(self):
        return self._node_query("root")

    def getSelf(self):
        return self._node_query("self")

    def getFromDef(self, name: str):
        return self._node_query("from_def", str(name), None)

    def getFromId(self, id: int):
        return self._node_query("from_id", int(id))

    def getFromDevice(self, device):
        return self._node_query("from_device", device._tag)

    def getSelected(self):
        return None

    def simulationReset(self) -> None:
        self._query("simulation_reset")

    def simulationResetPhysics(self) -> None:
        self._query("simulation_reset_physics")

    def simulationQuit(self, status: int) -> None:
        self._query("simulation_quit", int(status))

    def simulationSetMode(self, mode: int) -> None:
        self._query("simulation_set_mode", int(mode))

    def simulationGetMode(self) -> int:
        return self._query("simulation_get_mode")

    def worldReload(self) -> None:
        self._query("world_reload")

    def worldSave(self, filename: str | None = None) -> bool:
        return bool(self._query("world_save", filename))

    def worldLoad(self, filename: str) -> None:
        _errors.error("wb_supervisor_world_load(): Odeon opens worlds from its File menu.")

    def setLabel(self, id: int, label: str, x: float, y: float, size: float, color: int,
                 transparency: float = 0.0, font: str = "Arial") -> None:
        """Labels are not drawn by Odeon's viewport yet: the call is accepted."""

    def exportImage(self, filename: str, quality: int) -> None:
        _errors.error("wb_supervisor_export_image() is not available in Odeon.")

    def movieStartRecording(self, *args) -> None:
        _errors.error("wb_supervisor_movie_start_recording() is not available in Odeon.")

    def movieStopRecording(self) -> None:
        """No movie is recorded (see movieStartRecording)."""

    def movieIsReady(self) -> bool:
        return True

    def movieFailed(self) -> bool:
        return True

    def animationStartRecording(self, filename: str) -> bool:
        _errors.error("wb_supervisor_animation_start_recording() is not available in Odeon.")
        return False

    def animationStopRecording(self) -> bool:
        return False

    @property
    def simulation_mode(self) -> int:
        return self.simulationGetMode()

    @simulation_mode.setter
    def simulation_mode(self, mode: int) -> None:
        self.simulationSetMode(mode)
