"""Controller "flying_robot": the flight plan of the flying robot sample.

Worlds: resources/worlds/flying_robot.wbt and resources/worlds/default.wbt.
As in Webots' ``howto/physics`` sample, the work is split in two:

- **This controller decides.** It rests for ``TAKE_OFF_TIME``, then asks for
  ``HOVER_HEIGHT`` and ``CRUISE_SPEED``; when the plugin's ray reports an
  obstacle closer than ``AVOID_DISTANCE`` it prints it, stops and turns on the
  spot at ``TURN_RATE`` for at least ``TURN_TIME`` and until the way is clear.
- **The physics plugin** (plugins/physics/flying_robot) **flies.** It turns the
  latest command into forces and torques (weight compensation, height PD,
  levelling, speed and yaw-rate controllers), owns the ray that looks ahead,
  the feet contacts and the drawing. Until the first command arrives it adds
  nothing: the robot rests on its feet.

Messages (little-endian float64, Python ``struct`` formats):

- Command, this controller's Emitter ``"emitter"`` on channel 0 (the plugin's
  ``dWebotsReceive``), one per step from take-off on: ``"<3d"`` = target height
  of the centre of mass [m] above the floor, forward speed along the robot's
  heading [m/s], yaw rate [rad/s] (positive: counter-clockwise seen from +z).
- Ray distance, the plugin's ``dWebotsSend(1, ...)`` to the Receiver
  ``"receiver"`` on channel 1, one per step: ``"<d"`` = distance [m] from the
  ray's start to the nearest obstacle ahead, ``inf`` when nothing is within
  the ray's 1 m.

Timing (Webots'): a command sent after step k moves the robot in step k+1;
the distance the plugin measured in step k is read here right after step k.
So the controller reacts to an obstacle one step (16 ms) after the plugin saw
it, and the time it prints is the end of that step.
"""

import math
import struct
from dataclasses import dataclass

from controller import Receiver, Robot

TAKE_OFF_TIME = 1.0      # [s] rest on the feet until then
HOVER_HEIGHT = 0.5       # [m] target height of the centre of mass (floor at z = 0)
CRUISE_SPEED = 0.3       # [m/s] forward speed when the way is clear
TURN_RATE = 1.5          # [rad/s] yaw rate while avoiding an obstacle
TURN_TIME = 1.0          # [s] shortest turn (about 86 degrees at TURN_RATE)
AVOID_DISTANCE = 0.6     # [m] obstacles closer than this make the robot turn

COMMAND_FORMAT = "<3d"   # target height [m], forward speed [m/s], yaw rate [rad/s]
DISTANCE_FORMAT = "<d"   # ray distance [m], inf: nothing ahead


@dataclass(frozen=True)
class Command:
    """What the plugin should fly: height [m], forward speed [m/s], yaw rate [rad/s]."""

    height: float
    speed: float
    yaw_rate: float

    def pack(self) -> bytes:
        return struct.pack(COMMAND_FORMAT, self.height, self.speed, self.yaw_rate)


class FlightPlan:
    """Take-off, cruise and obstacle avoidance, decided once per step."""

    def __init__(self) -> None:
        self.turn_until: float | None = None  # [s] while turning away: earliest end of the turn

    def decide(self, t: float, distance: float) -> Command | None:
        """The command for the next step at time ``t`` [s] given the latest ray
        ``distance`` [m]; None before take-off (the robot rests)."""
        close = distance < AVOID_DISTANCE
        if close and self.turn_until is None:
            print(f"Obstacle detected at a distance of {distance:.3f} m after {t:.2f} s")
            self.turn_until = t + TURN_TIME
        elif self.turn_until is not None and t >= self.turn_until and not close:
            self.turn_until = None  # turned enough and the way is clear: cruise again
        if t < TAKE_OFF_TIME:
            return None
        if self.turn_until is not None:
            return Command(HOVER_HEIGHT, 0.0, TURN_RATE)
        return Command(HOVER_HEIGHT, CRUISE_SPEED, 0.0)


def latest_distance(receiver: Receiver, previous: float) -> float:
    """The newest ray distance [m] in the receiver's queue (``previous`` when empty)."""
    distance = previous
    while receiver.getQueueLength() > 0:
        distance = struct.unpack(DISTANCE_FORMAT, receiver.getBytes())[0]
        receiver.nextPacket()
    return distance


def main() -> None:
    robot = Robot()
    timestep = int(robot.getBasicTimeStep())
    emitter = robot.getDevice("emitter")
    receiver = robot.getDevice("receiver")
    receiver.enable(timestep)
    plan = FlightPlan()
    distance = math.inf
    while robot.step(timestep) != -1:
        distance = latest_distance(receiver, distance)
        command = plan.decide(robot.getTime(), distance)
        if command is not None:
            emitter.send(command.pack())


main()
