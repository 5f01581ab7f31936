"""`ControllerHost`: runs the controllers of a Simulation in lock-step
(docs/controllers.md, "Scheduling").

Installed as the Simulation's ``robots`` hook, it is called three times per
basic step (engine/sim/simulation.py):

1. `ready` (before anything moves): wait until every synchronous controller
   that is not blocked in ``step`` has sent its next request, answering its
   ``init`` and Supervisor queries meanwhile; asynchronous controllers
   (``synchronization FALSE``) are served without waiting. False when the
   wait was interrupted (pause, close): the step does not happen.
2. `act` (after the plugin's step start): the latched commands of every
   request are applied, in robot order; then Emitter packets go out
   (channel 0 to the plugin's ``dWebotsReceive``) — the motors' PID runs
   right after, in the Simulation.
3. `answer` (the step is done, time advanced): every device's ``post_step``,
   the plugin's ``dWebotsSend`` packets to Receivers, due samples, then
   the answer to every controller whose ``step(ms)`` has elapsed.

Controller output is printed to the console between steps, robot by robot
(source ``controller:<robot name>``, text prefixed with ``[<robot name>]``).
A controller that exits or crashes is reported with its status and the
simulation goes on without it; one that sends nothing for `late_after`
seconds is reported late once (`late` lists them; `restart` starts it
again); with ``give_up_after`` set (``odeon run``) a late controller is
stopped after that many seconds.
"""

from __future__ import annotations

import math
import select
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engine.controllers.devices import DeviceContext, missing_value, robot_devices
from engine.controllers.discovery import ControllerNotFound, find_controller, runs_nothing
from engine.controllers.process import EXIT_GRACE, ControllerProcess
from engine.controllers.radio import Radio
from engine.controllers.runtime.controller._wire import ConnectionClosed
from engine.controllers.session import COMPUTING, ENDED, STARTING, WAITING, Session
from engine.controllers.supervisor_queries import SupervisorQueries
from engine.world import Node

#: Seconds without a request before a controller is reported late.
LATE_AFTER = 5.0
#: Seconds between two looks at the controllers' pipes while waiting.
POLL = 0.05
#: Seconds the host polls without sleeping before it blocks on the pipes: a
#: controller answering within that time is served without the kernel's
#: wake-up latency (tens of µs on an idle machine)
SPIN = 100e-6
#: Device tags of the robot itself: customData, battery, keyboard.
ROBOT_TAG, BATTERY_TAG, KEYBOARD_TAG = -1, -2, -3

PluginSend = Callable[[int, bytes], bool]
PluginTake = Callable[[], list]


class ControllerHost:
    """The controllers of one Simulation (module docstring)."""

    def __init__(self, sim, *, bundled_dir: Path | None = None, env: dict | None = None,
                 to_plugin: PluginSend | None = None, from_plugin: PluginTake | None = None,
                 late_after: float = LATE_AFTER, give_up_after: float | None = None) -> None:
        self.sim = sim
        self._bundled_dir = bundled_dir
        self._env = env
        self.to_plugin = to_plugin
        self.from_plugin = from_plugin
        self.late_after = late_after
        self.give_up_after = give_up_after
        #: True (called in the waiting loop) stops waiting: the step is skipped
        self.interrupted: Callable[[], bool] | None = None
        self.sessions: list[Session] = []
        #: world steps since the controllers started (sampling and due times count these)
        self.count = 0
        #: keys held in the 3D view (codes as Keyboard.getKey returns them)
        self.keys: list[int] = []
        #: listeners ``fn(robot name, status text)`` for late / ended / restarted
        self.status_listeners: list[Callable[[str, str], None]] = []
        self.queries = SupervisorQueries(self)
        self.radio = self._new_radio()
        #: the runner's mode ("realtime", "fast", "paused"), kept up to date by the runner
        self.mode = "realtime"
        #: Supervisor requests the runner carries out: a mode, a reload, a quit status
        self.requested_mode: str | None = None
        self.reload_later = False
        self.quit_status: int | None = None
        #: Supervisor.simulationReset: done at the end of the current step
        self.reset_later = False
        self._restart_later: list[str] = []

    # ------------------------------------------------------------- life cycle
    def robots_with_controllers(self) -> list[Node]:
        """Every Robot node whose controller field names a program."""
        return [n for n in self.sim.world.iter_nodes()
                if not n.is_use and not n.is_opaque and n.is_a("Robot")
                and not runs_nothing(str(n.get("controller")))]

    def start(self) -> None:
        """Start the controller of every robot (not yet started) and install the hooks."""
        running = {id(s.robot) for s in self.sessions if s.running}
        for robot in self.robots_with_controllers():
            if id(robot) not in running:
                self._start(robot)
        self.sim.robots = self

    def _start(self, robot: Node) -> Session | None:
        name = str(robot.get("name"))
        try:
            program = find_controller(str(robot.get("controller")), self.sim.world.filename,
                                      self._bundled_dir, self._env)
        except ControllerNotFound as exc:
            self._print(name, f"ERROR: {exc}")
            return None
        args = [str(a) for a in robot.get("controllerArgs")]
        try:
            process = ControllerProcess(program.source, args, name, self._env)
        except OSError as exc:
            self._print(name, f"ERROR: cannot start controller \"{program.name}\": {exc}")
            return None
        index = len(self.sessions)
        session = Session(robot, name, program, process, [],
                          bool(robot.get("synchronization")))
        session.devices = robot_devices(lambda tag: self._context(session, index, tag), robot)
        self.sessions.append(session)
        self._print(name, f'INFO: starting controller "{program.name}" '
                          f"({program.source})")
        return session

    def _context(self, session: Session, index: int, tag: int) -> DeviceContext:
        info = self.sim.world.world_info
        seed = int(info.get("randomSeed")) if info is not None else 0
        # one noise stream per device: the world's seed, the robot's and the device's index
        return DeviceContext(self.sim, lambda text: self._robot_warning(session.name, text),
                             (seed & 0xFFFF) * 1_000_003 + index * 1009 + tag, self.radio,
                             session.name)

    def stop(self) -> None:
        """End every controller: ``step`` returns -1 to those waiting, then
        each gets 1 s before it is killed; the hooks are removed."""
        deadline = time.monotonic() + EXIT_GRACE  # one grace period for all of them
        # a controller computing its step gets -1 from the step call it is about to make
        while time.monotonic() < deadline:
            busy = [s for s in self.sessions if s.state in (STARTING, COMPUTING)]
            if not busy:
                break
            self._wait_any(busy)
        for session in self.sessions:
            if session.running and session.state == WAITING:
                self._send_answer(session, ending=True)
        for session in self.sessions:
            session.process.close_pipes()
        for session in self.sessions:
            self._end(session, report=False, grace=deadline - time.monotonic())
        self._flush_output()
        self.sessions = []
        if getattr(self.sim, "robots", None) is self:
            self.sim.robots = None

    def restart(self, robot_name: str | None = None) -> None:
        """Stop and start again the controller of ``robot_name`` (every one: None);
        its devices return to their initial state. Other robots' controllers,
        running or ended, are left as they are."""
        if robot_name is None:
            self.stop()
            self.start()
            return
        keep = []
        restarted = []
        for session in self.sessions:
            if session.name != robot_name:
                keep.append(session)
                continue
            if session.running and session.state == WAITING:
                self._send_answer(session, ending=True)
            self._end(session, report=False)
            self.radio.forget_robot(session.name)
            restarted.append(session.robot)
        self.sessions = keep
        self._flush_output()
        if not restarted:  # it had no session: its controller field may name one now
            restarted = [r for r in self.robots_with_controllers()
                         if str(r.get("name")) == robot_name]
        for robot in restarted:
            if not runs_nothing(str(robot.get("controller"))):  # "<none>" now: stays stopped
                self._start(robot)
            self._notify(robot_name, "restarted")
        self.sim.robots = self

    def rebind(self) -> None:
        """The Simulation was reset or rebuilt (ODE objects may be new): rebuild
        every running session's devices, keeping their processes and sampling
        periods (Supervisor.simulationReset keeps controllers running)."""
        self.radio = self._new_radio()
        previous_count, self.count = self.count, 0
        for index, session in enumerate(self.sessions):
            if not session.running:
                continue
            periods = {d.tag: d.period_steps for d in session.devices}
            session.devices = robot_devices(
                lambda tag, s=session, i=index: self._context(s, i, tag), session.robot)
            for device in session.devices:
                device.period_steps = periods.get(device.tag, 0)
                device.next_sample = device.period_steps
            if session.state == WAITING:
                session.due_step = max(session.due_step - previous_count, 1)

    def restart_later(self, robot_name: str) -> None:
        """Restart a controller before the next step (Node.restartController)."""
        self._restart_later.append(robot_name)

    # ------------------------------------------------------------------ status
    def late(self) -> list[str]:
        """Robots whose controller was reported late and has not answered since."""
        return [s.name for s in self.sessions if s.running and s.late_reported]

    def status(self) -> dict[str, str]:
        """Robot name -> "starting", "computing", "waiting", "late" or "ended"."""
        return {s.name: ("late" if s.late_reported and s.running else s.state)
                for s in self.sessions}

    # ----------------------------------------------------- the Simulation's calls
    def ready(self, wait: bool = True) -> bool:
        """Wait for the requests the next step needs (module docstring, 1).
        With ``wait`` False, serve what has arrived and say whether everything
        is in, without waiting (`wait_for_messages` waits without serving)."""
        while self._restart_later:
            self.restart(self._restart_later.pop(0))
        try:
            while True:
                self._serve_async()
                needed = self._needed()
                if not needed:
                    return True
                if not wait:
                    self._wait_any(needed, timeout=0.0)
                    self._check_late()
                    return not self._needed()
                self._wait_any(needed)
                self._check_late()
                if self.interrupted is not None and self.interrupted():
                    return False
        finally:
            self._flush_output()

    def _needed(self) -> list[Session]:
        """Synchronous controllers whose next request has not arrived yet."""
        return [s for s in self.sessions if s.synchronous and s.state in (STARTING, COMPUTING)]

    def wait_for_messages(self, timeout: float) -> None:
        """Wait up to ``timeout`` s until a controller the next step needs has
        sent something (read nothing: `ready` serves it)."""
        fds = [fd for s in self._needed() if not s.process.closed
               for fd in (s.process.read_fd, *s.process.output_fds)]
        if fds:
            try:
                select.select(fds, [], [], timeout)
            except (OSError, ValueError):
                pass

    def _wait_any(self, sessions: list[Session], timeout: float = POLL) -> None:
        """Serve the sessions that sent something (requests or output), waiting
        at most ``timeout`` s."""
        by_fd = {s.process.read_fd: s for s in sessions if not s.process.closed}
        output = {fd: s for s in sessions for fd in s.process.output_fds}
        fds = [*by_fd, *output]
        try:
            readable = _spin_select(fds, SPIN) if timeout > 0.0 else []
            if not readable:
                readable, _, _ = select.select(fds, [], [], timeout)
        except (OSError, ValueError):
            readable = list(by_fd)
        for fd in readable:
            if fd in output:
                output[fd].process.drain_output(fd)
                continue
            session = by_fd[fd]
            try:
                session.process.feed()
            except (ConnectionClosed, OSError):
                self._end(session, report=True)
                continue
            self._serve(session, 0.0)

    def act(self, dt: float) -> None:
        """Apply the latched commands, then send the Emitters' packets."""
        for session in self.sessions:
            commands, session.commands = session.commands, []
            for tag, method, args in commands:
                self._apply(session, tag, method, args)
        self.radio.transmit(self.to_plugin)

    def answer(self, dt: float) -> None:
        """Devices' post-step, plugin packets, due samples and due answers."""
        self.count += 1
        count = self.count
        live = [s for s in self.sessions if s.running]
        for session in live:
            for device in session.devices:
                if device.sampler is not None:
                    device.sampler.post_step(dt)
        if self.from_plugin is not None:
            self.radio.from_plugin(self.from_plugin())
        for session in live:
            self._sample(session, count)
        due = [s for s in live if s.state == WAITING and s.due_step <= count]
        if self.reset_later:  # Supervisor.simulationReset: at the end of this step
            self.reset_later = False
            self.sim.reset()
            self.rebind()
        for session in due:
            self._send_answer(session)

    # ---------------------------------------------------------------- serving
    def _serve_async(self) -> None:
        for session in self.sessions:
            if not session.synchronous and session.state in (STARTING, COMPUTING):
                self._serve(session, 0.0)

    def _serve(self, session: Session, timeout: float) -> None:
        """Handle what ``session`` sent, waiting at most ``timeout`` s for a first message."""
        try:
            message = session.process.poll_message(timeout)
            while message is not None:
                self._handle(session, message)
                if session.state not in (STARTING, COMPUTING):
                    return
                message = session.process.poll_message(0.0)
        except (ConnectionClosed, OSError):
            self._end(session, report=True)

    def _handle(self, session: Session, message: dict) -> None:
        # what the controller printed before this message is in its pipes already
        session.process.drain_output()
        op = message.get("op")
        if op == "init":
            session.process.send(self._config(session))
            session.state = COMPUTING
            # late from now on: before the host read this (a paused
            # simulation reads nothing), the controller was waiting for it
            session.waiting_since = time.monotonic()
        elif op == "query":
            value, errors = self.queries.run(session, message["q"], message.get("args", []))
            session.process.send({"op": "result", "value": value, "errors": errors})
        elif op == "step":
            session.commands.extend(message.get("cmds", ()))
            ms = int(message.get("ms", 0))
            session.late_reported = False
            if ms <= 0:
                for tag, method, args in session.commands:
                    self._apply(session, tag, method, args)
                session.commands = []
                self._send_answer(session)
                return
            steps = max(1, math.ceil(ms / self.sim.basic_time_step - 1e-9))
            session.due_step = self.count + steps
            session.state = WAITING

    def _config(self, session: Session) -> dict:
        robot = session.robot
        world_path = self.sim.world.filename or ""
        project = str(Path(world_path).resolve().parent.parent) if world_path else ""
        return {"op": "config", "name": session.name, "model": str(robot.get("model")),
                "basic_time_step": float(self.sim.basic_time_step),
                "custom_data": str(robot.get("customData")),
                "supervisor": bool(robot.get("supervisor")),
                "synchronization": session.synchronous, "project_path": project,
                "world_path": world_path, "time": self.sim.time_ms / 1000.0,
                "devices": [d.info for d in session.devices]}

    def _send_answer(self, session: Session, ending: bool = False) -> None:
        keys = list(self.keys) if session.keyboard_period > 0 else []
        answer = {"op": "answer", "t": self.sim.time_ms / 1000.0,
                  "status": -1 if ending else 0, "values": session.values,
                  "packets": session.packets, "keys": keys,
                  "custom_data": str(session.robot.get("customData"))}
        session.values, session.packets = {}, {}
        session.state = COMPUTING
        session.waiting_since = time.monotonic()
        if not session.process.send(answer):
            self._end(session, report=True)

    # --------------------------------------------------------------- commands
    def _apply(self, session: Session, tag: int, method: str, args) -> None:
        if tag == ROBOT_TAG and method == "custom_data":
            session.robot.set("customData", str(args[0]))
            return
        if method == "enable":
            period = int(args[0])
            steps = 0 if period <= 0 else max(1, math.ceil(period / self.sim.basic_time_step
                                                           - 1e-9))
            if tag == KEYBOARD_TAG:
                session.keyboard_period = steps
            elif tag == BATTERY_TAG:
                session.battery_period_steps = steps
                session.battery_next = self.count + steps
            else:
                self._enable(session, tag, steps)
            return
        device = session.device(tag)
        handler = device.handlers.get(method) if device is not None else None
        if handler is None:
            self._robot_warning(session.name, f"unknown command {method!r} for device {tag}")
            return
        try:
            handler(*args)
        except (ValueError, TypeError) as exc:
            self._robot_warning(session.name, f'"{device.name}": {exc}')

    def _enable(self, session: Session, tag: int, steps: int) -> None:
        device = session.device(tag)
        if device is None:
            return
        device.period_steps = steps
        device.next_sample = self.count + steps
        feedback = device.handlers.get("feedback")
        if feedback is not None:
            feedback(steps)
        if steps == 0:
            session.values[tag] = missing_value(device)

    def _sample(self, session: Session, count: int) -> None:
        for device in session.devices:
            if device.period_steps <= 0 or device.next_sample > count:
                continue
            device.next_sample += device.period_steps
            if device.next_sample <= count:
                device.next_sample = count + device.period_steps
            if device.type_name == "Receiver":
                packets = self.radio.take(device)
                if packets:
                    session.packets.setdefault(device.tag, []).extend(packets)
                continue
            if device.sampler is not None:
                session.values[device.tag] = _plain(device.sampler.read())
            if device.extra_values is not None:
                session.values.update(device.extra_values())
        if session.battery_period_steps and session.battery_next <= count:
            session.battery_next = count + session.battery_period_steps
            session.values[BATTERY_TAG] = self._battery(session)

    def _battery(self, session: Session) -> float:
        """The robot's battery energy [J]: its ``battery`` field's current value
        less ``cpuConsumption`` [W] over the time simulated (docs/controllers.md)."""
        battery = session.robot.get("battery")
        if not battery:
            return math.nan
        used = float(session.robot.get("cpuConsumption")) * self.sim.time_ms / 1000.0
        return max(0.0, float(battery[0]) - used)

    # ------------------------------------------------------------------ faults
    def _check_late(self) -> bool:
        """Report controllers waited for longer than `late_after` (once each);
        stop those past ``give_up_after``. True when one is late."""
        now = time.monotonic()
        late = False
        for session in self.sessions:
            if not (session.synchronous and session.state in (STARTING, COMPUTING)):
                continue
            waited = now - session.waiting_since
            if waited >= self.late_after:
                late = True
                if not session.late_reported:
                    session.late_reported = True
                    self._print(session.name, f"WARNING: controller \"{session.program.name}\""
                                f" is late: no step request for {waited:.0f} s (it can be "
                                "restarted)")
                    self._notify(session.name, "late")
            if self.give_up_after is not None and waited >= self.give_up_after:
                self._print(session.name, f"ERROR: controller \"{session.program.name}\" "
                            f"stopped: no step request for {waited:.0f} s")
                self._end(session, report=False)
        return late

    def _end(self, session: Session, report: bool, grace: float = EXIT_GRACE) -> None:
        if session.state == ENDED:
            return
        session.state = ENDED
        status = session.process.stop(grace)
        self._print_output(session)
        if report:
            text = (f'INFO: controller "{session.program.name}" exited successfully.'
                    if status == 0 else
                    f'ERROR: controller "{session.program.name}" exited with status {status}'
                    " (the simulation goes on without it)")
            self._print(session.name, text)
        self._notify(session.name, "ended")

    # ------------------------------------------------------------------ output
    def _flush_output(self) -> None:
        for session in self.sessions:
            self._print_output(session)

    def _print_output(self, session: Session) -> None:
        for line in session.process.take_output():
            self._print(session.name, line.text)

    def _print(self, robot: str, text: str) -> None:
        self.sim.console.print(f"controller:{robot}", f"[{robot}] {text}")

    def _robot_warning(self, robot: str, text: str) -> None:
        self._print(robot, f"WARNING: {text}")

    def _notify(self, robot: str, status: str) -> None:
        for listener in list(self.status_listeners):
            listener(robot, status)

    # ------------------------------------------------------------------ radio
    def _new_radio(self) -> Radio:
        """An empty radio whose devices are placed by the Supervisor's world frames."""
        def frame_of(node: Node) -> tuple[np.ndarray, np.ndarray]:
            frame = self.queries.world_frame(node)
            return frame.R, frame.t
        return Radio(frame_of, self.sim.dt, self._robot_warning)


def _spin_select(fds: list[int], seconds: float) -> list[int]:
    """The readable descriptors among ``fds``, polling (without sleeping) for at
    most ``seconds``; [] when none became readable."""
    end = time.perf_counter() + seconds
    while True:
        readable, _, _ = select.select(fds, [], [], 0.0)
        if readable or time.perf_counter() >= end:
            return readable


def _plain(value):
    """A sample as marshal sends it: float, list of floats, bytes or None."""
    if value is None or isinstance(value, (bytes, float, int)):
        return value
    if isinstance(value, np.ndarray):
        return [float(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [float(v) for v in value]
    return float(value)
