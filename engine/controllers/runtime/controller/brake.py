"""`Brake`: extra damping on a joint axis."""

from __future__ import annotations

from .device import Device


class Brake(Device):
    """Sets the damping constant of the joint axis it sits on."""

    ROTATIONAL = 0
    LINEAR = 1

    def setDampingConstant(self, dampingConstant: float) -> None:
        self._command("damping", float(dampingConstant))

    def getType(self) -> int:
        return Brake.LINEAR if self._info.get("linear") else Brake.ROTATIONAL

    def getMotor(self):
        name = self._info.get("motor")
        return None if name is None or self._robot is None else self._robot.getDevice(name)

    def getPositionSensor(self):
        name = self._info.get("position_sensor")
        return None if name is None or self._robot is None else self._robot.getDevice(name)

    @property
    def type(self) -> int:
        return self.getType()
