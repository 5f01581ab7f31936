"""Robot controllers: Webots' controller model (docs/controllers.md).

`ControllerHost` starts one process per Robot whose ``controller`` field
names a program (`discovery`), talks to it in lock-step (`host`, `session`,
`process`), and carries its devices' commands and samples (`devices`,
`motor_commands`, `radio`, `cameras`) and its Supervisor calls
(`supervisor_queries`). The controllers themselves import the `controller`
package in ``runtime/`` (Webots' Python API).
"""

from engine.controllers.host import ControllerHost

__all__ = ["ControllerHost"]
