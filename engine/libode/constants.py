"""ODE's public constants used by the flat API (values of ODE 0.16's headers)."""

from __future__ import annotations

dInfinity = float("inf")

# contact surface mode bits (dSurfaceParameters.mode)
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

# joint parameters of axis group 1 (add dParamGroup per further axis)
(dParamLoStop, dParamHiStop, dParamVel, dParamLoVel, dParamHiVel, dParamFMax,
 dParamFudgeFactor, dParamBounce, dParamCFM, dParamStopERP, dParamStopCFM,
 dParamSuspensionERP, dParamSuspensionCFM, dParamERP) = range(14)
dParamGroup = 0x100

# joint types (dJointGetType, dAreConnectedExcluding)
(dJointTypeNone, dJointTypeBall, dJointTypeHinge, dJointTypeSlider,
 dJointTypeContact, dJointTypeUniversal, dJointTypeHinge2, dJointTypeFixed,
 dJointTypeNull, dJointTypeAMotor, dJointTypeLMotor, dJointTypePlane2D,
 dJointTypePR, dJointTypePU, dJointTypePiston, dJointTypeDBall,
 dJointTypeDHinge, dJointTypeTransmission) = range(18)

# geom classes (dGeomGetClass)
(dSphereClass, dBoxClass, dCapsuleClass, dCylinderClass, dPlaneClass, dRayClass,
 dConvexClass, dGeomTransformClass, dTriMeshClass, dHeightfieldClass) = range(10)
