"""`Robot`: the controller's robot, with Webots' names.

Lock-step protocol (the simulation side is `engine.controllers.session`):
``Robot()`` sends ``init`` and receives the configuration (name, basic time
step, devices, time); ``step(ms)`` sends every command queued since the
last step (setters are latched: only the simulation's next step uses them)
and blocks until ``ms`` of simulated time have passed; the answer carries
the sensors sampled since, Receiver packets, keys and the time. ``step``
returns 0, or -1 once when the simulation is ending (a second ``step``
after -1 exits the process, as in Webots).
"""

from __future__ import annotations

import math
import os
import sys

from . import _current, _errors
from ._connection import connect
from .keyboard import Keyboard
from .node import Node
from .registry import device_class

#: Battery sensor pseudo-device tag.
BATTERY_TAG = -2


class Robot:
    """This controller's robot (one per process)."""

    created = None

    EVENT_QUIT = -1
    EVENT_NO_EVENT = 0
    EVENT_MOUSE_CLICK = 1
    EVENT_MOUSE_MOVE = 2
    EVENT_KEYBOARD = 4
    EVENT_JOYSTICK_BUTTON = 8
    EVENT_JOYSTICK_AXIS = 16
    EVENT_JOYSTICK_POV = 32
    MODE_SIMULATION = 0
    MODE_CROSS_COMPILATION = 1
    MODE_REMOTE_CONTROL = 2

    def __init__(self) -> None:
        if Robot.created is not None:
            _errors.error("only one Robot instance can be created per controller process.")
            return
        connection = connect()
        if connection is None:
            sys.exit(1)
        Robot.created = self
        _current.set_robot(self)
        self._connection = connection
        self._commands: list = []
        self._values: dict = {}
        self._periods: dict = {}
        self._packets: dict = {}
        self._keys: list = []
        self._keys_read_at = -1.0
        self._ending = False
        config = connection.request({"op": "init"})
        self._config = config
        self._time = float(config["time"])
        self._custom_data = config["custom_data"]
        self._descriptions = {d["name"]: d for d in config["devices"]}
        self._by_tag = {d["tag"]: d for d in config["devices"]}
        self._devices: dict = {}
        for description in config["devices"]:
            cls = device_class(description["type"])
            if cls is not None:
                self._devices[description["name"]] = cls(description["name"], _built=True)
        self.keyboard = Keyboard()

    # ------------------------------------------------------------ stepping
    def step(self, duration=None) -> int:
        """Send the queued commands, let ``duration`` ms (default: the basic
        time step) of simulated time pass, read the sensors; 0, or -1 when
        the simulation is ending."""
        if self._ending:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
        if duration is None:
            duration = self.getBasicTimeStep()
        ms = int(duration)
        if ms < 0:
            _errors.error("wb_robot_step() called with a negative duration.")
            return -1
        commands, self._commands = self._commands, []
        answer = self._connection.request({"op": "step", "ms": ms, "cmds": commands})
        return self._take_answer(answer)

    def stepBegin(self, duration=None) -> int:
        """The first half of a split step: here the whole step runs at once
        (the simulation waits for this controller anyway)."""
        self._split = self.step(duration)
        return 0

    def stepEnd(self) -> int:
        """The second half of a split step: the value `step` returned."""
        return getattr(self, "_split", 0)

    def _take_answer(self, answer: dict) -> int:
        self._time = float(answer["t"])
        self._values.update(answer["values"])
        for tag, packets in answer["packets"].items():
            self._packets.setdefault(tag, []).extend(packets)
        self._keys = list(answer["keys"])
        if "custom_data" in answer:
            self._custom_data = answer["custom_data"]
        if answer["status"] < 0:
            self._ending = True
            return -1
        return 0

    def _queue_command(self, tag: int, method: str, args: tuple) -> None:
        self._commands.append((tag, method, tuple(args)))

    def _query(self, query: str, *args):
        """An immediate call answered by the simulation now (Supervisor getters)."""
        answer = self._connection.request({"op": "query", "q": query, "args": list(args)})
        for line in answer.get("errors", ()):
            _errors.error(line)
        return answer.get("value")

    def _node_of(self, number):
        """A `Node` for a node number from the simulation (None stays None)."""
        return None if number is None else Node(self, number)

    def _description_of(self, name):
        if isinstance(name, int):
            return self._by_tag.get(name)
        return self._descriptions.get(name)

    # -------------------------------------------------------------- getters
    def getTime(self) -> float:
        return self._time

    def getBasicTimeStep(self) -> float:
        return float(self._config["basic_time_step"])

    def getName(self) -> str:
        return self._config["name"]

    def getModel(self) -> str:
        return self._config["model"]

    def getCustomData(self) -> str:
        return self._custom_data

    def setCustomData(self, data: str) -> None:
        self._custom_data = str(data)
        self._queue_command(-1, "custom_data", (self._custom_data,))

    def getSupervisor(self) -> bool:
        return bool(self._config["supervisor"])

    def getSynchronization(self) -> bool:
        return bool(self._config["synchronization"])

    def getProjectPath(self) -> str:
        return self._config["project_path"]

    def getWorldPath(self) -> str:
        return self._config["world_path"]

    def getMode(self) -> int:
        return Robot.MODE_SIMULATION

    def setMode(self, mode: int, arg=None) -> None:
        if mode != Robot.MODE_SIMULATION:
            _errors.error("wb_robot_set_mode(): Odeon runs controllers in simulation mode only.")

    def getUrdf(self, prefix: str = "") -> str:
        return self._query("urdf", prefix) or ""

    def getDevice(self, name: str):
        device = self._devices.get(name)
        if device is None:
            _errors.error(f'Device "{name}" was not found on robot "{self.getName()}".')
        return device

    def getNumberOfDevices(self) -> int:
        return len(self._devices)

    def getDeviceByIndex(self, index: int):
        names = list(self._devices)
        if not 0 <= index < len(names):
            raise KeyError(index)
        return self._devices[names[index]]

    def getKeyboard(self):
        return self.keyboard

    # -------------------------------------------------------------- battery
    def batterySensorEnable(self, samplingPeriod: int) -> None:
        self._periods[BATTERY_TAG] = int(samplingPeriod)
        self._queue_command(BATTERY_TAG, "enable", (int(samplingPeriod),))

    def batterySensorDisable(self) -> None:
        self.batterySensorEnable(0)

    def batterySensorGetSamplingPeriod(self) -> int:
        return self._periods.get(BATTERY_TAG, 0)

    def batterySensorGetValue(self) -> float:
        if self.batterySensorGetSamplingPeriod() <= 0:
            _errors.error("wb_robot_battery_sensor_get_value() called for a disabled device! "
                          "Please use: wb_robot_battery_sensor_enable().")
            return math.nan
        return self._values.get(BATTERY_TAG, math.nan)

    # ---------------------------------------------------------- robot window
    def wwiSendText(self, text: str) -> None:
        """Robot windows do not exist in Odeon: the text is dropped."""

    def wwiReceiveText(self) -> str | None:
        """Robot windows do not exist in Odeon: nothing is ever received."""
        return None

    def waitForUserInputEvent(self, event_type: int, timeout: int) -> int:
        """Steps until a key is pressed (keyboard events only) or ``timeout`` ms pass."""
        waited = 0
        step = int(self.getBasicTimeStep())
        while waited < timeout:
            if self.step(step) < 0:
                return Robot.EVENT_QUIT
            waited += step
            if event_type & Robot.EVENT_KEYBOARD and self._keys:
                return Robot.EVENT_KEYBOARD
        return Robot.EVENT_NO_EVENT

    # --------------------------------------------------------- properties
    @property
    def name(self) -> str:
        return self.getName()

    @property
    def model(self) -> str:
        return self.getModel()

    @property
    def time(self) -> float:
        return self.getTime()

    @property
    def basic_time_step(self) -> float:
        return self.getBasicTimeStep()

    @property
    def custom_data(self) -> str:
        return self.getCustomData()

    @custom_data.setter
    def custom_data(self, data: str) -> None:
        self.setCustomData(data)

    @property
    def supervisor(self) -> bool:
        return self.getSupervisor()

    @property
    def synchronization(self) -> bool:
        return self.getSynchronization()

    @property
    def number_of_devices(self) -> int:
        return self.getNumberOfDevices()

    @property
    def project_path(self) -> str:
        return self.getProjectPath()

    @property
    def world_path(self) -> str:
        return self.getWorldPath()

    @property
    def mode(self) -> int:
        return self.getMode()


def _deprecated_getter(name: str):
    def getter(self, device_name: str):
        _errors.deprecated(f"Robot.{name}", "Robot.getDevice")
        return self.getDevice(device_name)
    getter.__name__ = name
    return getter


# Webots' deprecated per-type getters: they warn, then call getDevice.
for _name in ("getAccelerometer", "getBrake", "getCamera", "getCompass", "getDistanceSensor",
              "getEmitter", "getGPS", "getGyro", "getInertialUnit", "getLED", "getLinearMotor",
              "getMotor", "getPositionSensor", "getReceiver", "getRotationalMotor",
              "getTouchSensor"):
    setattr(Robot, _name, _deprecated_getter(_name))
