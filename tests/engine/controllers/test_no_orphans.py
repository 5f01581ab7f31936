"""No controller outlives the simulation: not when the world is closed
(stop), and not when the process running the simulation is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tests.engine.controllers.project import make_project, start

WORLD = """
WorldInfo { basicTimeStep 16 }
Robot { name "r" controller "spin" }
"""

# writes its pid, then computes without ever calling step again
SPIN = """
import os, sys
from controller import Robot
r = Robot()
r.step(16)
with open(sys.argv[1], "w") as f:
    f.write(str(os.getpid()))
while True:
    pass
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped) counts as gone
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split()[2] != "Z"


def _wait_gone(pid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def _world(tmp_path: Path, pid_file: Path) -> Path:
    world = WORLD.replace('controller "spin"',
                          f'controller "spin" controllerArgs ["{pid_file}"]')
    return make_project(tmp_path, world, {"spin": SPIN})


def _read_pid(pid_file: Path) -> int:
    end = time.monotonic() + 20
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < end, "the controller never wrote its pid"
        time.sleep(0.05)
    return int(pid_file.read_text())


def test_stop_ends_a_controller_stuck_in_a_loop(tmp_path):
    pid_file = tmp_path / "pid"
    run = start(_world(tmp_path, pid_file))
    run.step(1)
    pid = _read_pid(pid_file)
    run.stop()                        # 1 s of grace, then killed
    assert _wait_gone(pid, 5.0)


def test_killing_the_simulation_process_leaves_no_controller(tmp_path):
    pid_file = tmp_path / "pid"
    world = _world(tmp_path, pid_file)
    script = textwrap.dedent(f"""
        import time
        from engine.sim.simulation import Simulation
        from engine.controllers import ControllerHost
        sim = Simulation({str(world)!r})
        host = ControllerHost(sim)
        host.start()
        sim.step()
        time.sleep(60)
    """)
    repo = Path(__file__).resolve().parents[3]
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=repo,
                              env=dict(os.environ, PYTHONPATH=str(repo)))
    try:
        pid = _read_pid(pid_file)
        assert _alive(pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert _wait_gone(pid, 5.0)   # its watchdog saw the parent go
    finally:
        if parent.poll() is None:
            parent.kill()
