"""Small worlds for the batch tests (texts and files)."""

from __future__ import annotations

from pathlib import Path

ONE_LINK_TEXT = """#VRML_SIM R2025a utf8
WorldInfo {
  basicTimeStep 1
}
DEF FLOOR Solid {
  boundingObject Plane {
    size 4 4
  }
}
DEF ONE_LINK Robot {
  translation 0 0 1
  children [
    HingeJoint {
      jointParameters HingeJointParameters {
        axis 0 1 0
      }
      device [
        RotationalMotor {
          name "motor"
          maxTorque 50
        }
      ]
      endPoint DEF LINK Solid {
        translation 0 0 -0.5
        boundingObject Box {
          size 0.05 0.05 1
        }
        physics Physics {
          density -1
          mass 1
        }
      }
    }
  ]
  boundingObject Sphere {
    radius 0.05
  }
}
DEF TABLE Transform {
  translation 2 0 0
  rotation 0 0 1 1.5707963267948966
  children [
    DEF BOX Solid {
      translation 1 0 0.5
      rotation 0 0 1 0.3
      boundingObject Box {
        size 0.1 0.1 0.1
      }
      physics Physics {
      }
    }
  ]
}
"""


def write_one_link(folder: Path) -> Path:
    """The one-link world (a robot, a floor, a box in a rotated Transform) as a file."""
    path = folder / "one_link_test.wbt"
    path.write_text(ONE_LINK_TEXT, encoding="utf-8")
    return path
