"""Every constant of the ODE API, with ODE 0.16.2's values (double build).

Joint parameters come in groups of 14: group k (1..3) starts at
``0x100 * (k - 1)``; the unsuffixed names are group 1.
"""

from __future__ import annotations

import math

#: IEEE infinity (ODE's ``dInfinity``; e.g. "no stop", "infinite friction").
dInfinity = math.inf
#: Machine epsilon of dReal = double (ODE's ``dEpsilon``, DBL_EPSILON).
dEpsilon = 2.220446049250313e-16
#: pi as in ODE's common.h (``M_PI``, ``dPI``).
M_PI = math.pi
dPI = M_PI

# --- contact surface modes (contact.h) ---
dContactMu2 = 0x001
dContactAxisDep = 0x001
dContactFDir1 = 0x002
dContactBounce = 0x004
dContactSoftERP = 0x008
dContactSoftCFM = 0x010
dContactMotion1 = 0x020
dContactMotion2 = 0x040
dContactMotionN = 0x080
dContactSlip1 = 0x100
dContactSlip2 = 0x200
dContactRolling = 0x400
dContactApprox0 = 0x0000
dContactApprox1_1 = 0x1000
dContactApprox1_2 = 0x2000
dContactApprox1_N = 0x4000
dContactApprox1 = 0x7000

# --- joint parameters (common.h) ---
PARAM_NAMES = ("LoStop", "HiStop", "Vel", "LoVel", "HiVel", "FMax", "FudgeFactor",
               "Bounce", "CFM", "StopERP", "StopCFM", "SuspensionERP", "SuspensionCFM",
               "ERP")
dParamsInGroup = len(PARAM_NAMES)
dParamGroup = 0x100
dParamGroup1, dParamGroup2, dParamGroup3 = 0x000, 0x100, 0x200
(dParamLoStop, dParamHiStop, dParamVel, dParamLoVel, dParamHiVel, dParamFMax,
 dParamFudgeFactor, dParamBounce, dParamCFM, dParamStopERP, dParamStopCFM,
 dParamSuspensionERP, dParamSuspensionCFM, dParamERP) = range(14)
(dParamLoStop1, dParamHiStop1, dParamVel1, dParamLoVel1, dParamHiVel1, dParamFMax1,
 dParamFudgeFactor1, dParamBounce1, dParamCFM1, dParamStopERP1, dParamStopCFM1,
 dParamSuspensionERP1, dParamSuspensionCFM1, dParamERP1) = range(0x000, 0x000 + 14)
(dParamLoStop2, dParamHiStop2, dParamVel2, dParamLoVel2, dParamHiVel2, dParamFMax2,
 dParamFudgeFactor2, dParamBounce2, dParamCFM2, dParamStopERP2, dParamStopCFM2,
 dParamSuspensionERP2, dParamSuspensionCFM2, dParamERP2) = range(0x100, 0x100 + 14)
(dParamLoStop3, dParamHiStop3, dParamVel3, dParamLoVel3, dParamHiVel3, dParamFMax3,
 dParamFudgeFactor3, dParamBounce3, dParamCFM3, dParamStopERP3, dParamStopCFM3,
 dParamSuspensionERP3, dParamSuspensionCFM3, dParamERP3) = range(0x200, 0x200 + 14)

# --- angular motor modes, transmission modes ---
dAMotorUser, dAMotorEuler = 0, 1
dTransmissionParallelAxes, dTransmissionIntersectingAxes, dTransmissionChainDrive = 0, 1, 2

# --- joint types ---
(dJointTypeNone, dJointTypeBall, dJointTypeHinge, dJointTypeSlider,
 dJointTypeContact, dJointTypeUniversal, dJointTypeHinge2, dJointTypeFixed,
 dJointTypeNull, dJointTypeAMotor, dJointTypeLMotor, dJointTypePlane2D,
 dJointTypePR, dJointTypePU, dJointTypePiston, dJointTypeDBall,
 dJointTypeDHinge, dJointTypeTransmission) = range(18)

# --- geom classes (collision.h) ---
(dSphereClass, dBoxClass, dCapsuleClass, dCylinderClass, dPlaneClass,
 dRayClass, dConvexClass, dGeomTransformClass, dTriMeshClass,
 dHeightfieldClass) = range(10)
dCCylinderClass = dCapsuleClass
dFirstSpaceClass = dSimpleSpaceClass = 10
dHashSpaceClass, dSweepAndPruneSpaceClass, dQuadTreeSpaceClass = 11, 12, 13
dLastSpaceClass = dQuadTreeSpaceClass
dMaxUserClasses = 4
dFirstUserClass = 14
dLastUserClass = dFirstUserClass + dMaxUserClasses - 1
dGeomNumClasses = dLastUserClass + 1

# --- sweep-and-prune axis orders (collision_space.h) ---
dSAP_AXES_XYZ = 0 | (1 << 2) | (2 << 4)
dSAP_AXES_XZY = 0 | (2 << 2) | (1 << 4)
dSAP_AXES_YXZ = 1 | (0 << 2) | (2 << 4)
dSAP_AXES_YZX = 1 | (2 << 2) | (0 << 4)
dSAP_AXES_ZXY = 2 | (0 << 2) | (1 << 4)
dSAP_AXES_ZYX = 2 | (1 << 2) | (0 << 4)

# --- trimesh preprocessing (collision_trimesh.h) ---
dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES = 0
dTRIDATAPREPROCESS_BUILD_FACE_ANGLES = 1
dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_BYTE_POSITIVE = 0
dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_BYTE_ALL = 1
dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_WORD_ALL = 2

# --- initialisation (odeinit.h) ---
dInitFlagManualThreadCleanup = 1
dAllocateFlagBasicData = 0
dAllocateFlagCollisionData = 1
dAllocateMaskAll = 0xFFFFFFFF
