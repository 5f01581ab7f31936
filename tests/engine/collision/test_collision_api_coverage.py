"""Every function and constant the ODE manual's collision chapter names exists in
engine.ode (and functions are callable).

The names were extracted once from the manual (the project's specification,
seeds/003: the chapter from "Collision Detection" to "How To Make Good
Simulations") with the pattern below; tokens of its prose that are not API
names are listed with the reason. ``dMassSetTrimesh`` (named in the mass
functions) needs trimesh geoms, so it is covered here too.
"""

from __future__ import annotations

import pytest

from engine import ode

#: Pattern used on the chapter to build MANUAL_NAMES (+ NOT_API).
PATTERN = r"\bd[A-Z][A-Za-z0-9_]*\b"

MANUAL_NAMES = [
    'dAABBTestFn', 'dBodyGetPosition', 'dBodyGetQuaternion', 'dBodyGetRotation',
    'dBodySetPosition', 'dBodySetQuaternion', 'dBodySetRotation', 'dBoxClass', 'dBoxTouchesBox',
    'dCapsuleClass', 'dClosestLineSegmentPoints', 'dCollide', 'dColliderFn', 'dContactGeom',
    'dConvexClass', 'dCreateBox', 'dCreateCapsule', 'dCreateConvex', 'dCreateCylinder',
    'dCreateGeom', 'dCreateGeomClass', 'dCreateGeomTransform', 'dCreateHeightfield',
    'dCreatePlane', 'dCreateRay', 'dCreateSphere', 'dCreateTriMesh', 'dCylinderClass',
    'dFirstSpaceClass', 'dFirstUserClass', 'dGeomBoxGetLengths', 'dGeomBoxPointDepth',
    'dGeomBoxSetLengths', 'dGeomCapsuleGetParams', 'dGeomCapsulePointDepth',
    'dGeomCapsuleSetParams', 'dGeomClass', 'dGeomClearOffset', 'dGeomCylinderGetParams',
    'dGeomCylinderSetParams', 'dGeomDestroy', 'dGeomDisable', 'dGeomDtorFn', 'dGeomEnable',
    'dGeomGetAABB', 'dGeomGetBody', 'dGeomGetBodyNext', 'dGeomGetCategoryBits', 'dGeomGetClass',
    'dGeomGetClassData', 'dGeomGetCollideBits', 'dGeomGetData', 'dGeomGetOffsetPosition',
    'dGeomGetOffsetQuaternion', 'dGeomGetOffsetRotation', 'dGeomGetPosition', 'dGeomGetQuaternion',
    'dGeomGetRotation', 'dGeomGetSpace', 'dGeomHeightfieldDataBuildByte',
    'dGeomHeightfieldDataBuildCallback', 'dGeomHeightfieldDataBuildDouble',
    'dGeomHeightfieldDataBuildShort', 'dGeomHeightfieldDataBuildSingle',
    'dGeomHeightfieldDataCreate', 'dGeomHeightfieldDataDestroy', 'dGeomHeightfieldDataSetBounds',
    'dGeomHeightfieldGetHeightfieldData', 'dGeomHeightfieldSetHeightfieldData', 'dGeomIsEnabled',
    'dGeomIsSpace', 'dGeomMoved', 'dGeomPlaneGetParams', 'dGeomPlanePointDepth',
    'dGeomPlaneSetParams', 'dGeomRayGet', 'dGeomRayGetClosestHit', 'dGeomRayGetLength',
    'dGeomRayGetParams', 'dGeomRaySet', 'dGeomRaySetClosestHit', 'dGeomRaySetLength',
    'dGeomRaySetParams', 'dGeomSetBody', 'dGeomSetCategoryBits', 'dGeomSetCollideBits',
    'dGeomSetConvex', 'dGeomSetData', 'dGeomSetOffsetPosition', 'dGeomSetOffsetQuaternion',
    'dGeomSetOffsetRotation', 'dGeomSetOffsetWorldPosition', 'dGeomSetOffsetWorldQuaternion',
    'dGeomSetOffsetWorldRotation', 'dGeomSetPosition', 'dGeomSetQuaternion', 'dGeomSetRotation',
    'dGeomSphereGetRadius', 'dGeomSpherePointDepth', 'dGeomSphereSetRadius', 'dGeomTransformClass',
    'dGeomTransformGetCleanup', 'dGeomTransformGetGeom', 'dGeomTransformGetInfo',
    'dGeomTransformSetCleanup', 'dGeomTransformSetGeom', 'dGeomTransformSetInfo',
    'dGeomTriMeshClearTCCache', 'dGeomTriMeshDataBuild', 'dGeomTriMeshDataBuildSimple',
    'dGeomTriMeshDataBuildSingle', 'dGeomTriMeshDataCreate', 'dGeomTriMeshDataDestroy',
    'dGeomTriMeshDataSet', 'dGeomTriMeshEnableTC', 'dGeomTriMeshGetArrayCallback',
    'dGeomTriMeshGetCallback', 'dGeomTriMeshGetPoint', 'dGeomTriMeshGetRayCallback',
    'dGeomTriMeshGetTriMergeCallback', 'dGeomTriMeshGetTriMeshDataID', 'dGeomTriMeshGetTriangle',
    'dGeomTriMeshIsTCEnabled', 'dGeomTriMeshSetArrayCallback', 'dGeomTriMeshSetCallback',
    'dGeomTriMeshSetData', 'dGeomTriMeshSetRayCallback', 'dGeomTriMeshSetTriMergeCallback',
    'dGetAABBFn', 'dGetColliderFnFn', 'dHashSpaceClass', 'dHashSpaceCreate', 'dHashSpaceGetLevels',
    'dHashSpaceSetLevels', 'dHeightfieldClass', 'dInfiniteAABB', 'dInitODE', 'dLastSpaceClass',
    'dLastUserClass', 'dMaxUserClasses', 'dPlaneClass', 'dQuadTreeSpaceClass',
    'dQuadTreeSpaceCreate', 'dRayClass', 'dSetColliderOverride', 'dSimpleSpaceClass',
    'dSimpleSpaceCreate', 'dSpaceAdd', 'dSpaceCollide', 'dSpaceCollide2', 'dSpaceDestroy',
    'dSpaceGetCleanup', 'dSpaceGetGeom', 'dSpaceGetNumGeoms', 'dSpaceGetSublevel', 'dSpaceQuery',
    'dSpaceRemove', 'dSpaceSetCleanup', 'dSpaceSetSublevel', 'dSphereClass', 'dTriMeshClass',
]

NOT_API = {
    'dBodyID': 'C type',
    'dCollideTTL': "ODE's internal trimesh-trimesh collider, named in prose (not in the headers)",
    'dGeomHeightfieldDataBuild': 'prefix of the dGeomHeightfieldDataBuild* functions in prose',
    'dGeomID': 'C type',
    'dHeightfield': 'class name in prose',
    'dHeightfieldData': 'class name in prose',
    'dHeightfieldDataID': 'C type',
    'dHeightfieldGetHeight': 'C typedef (a Python callable is passed)',
    'dMatrix3': 'C type',
    'dNearCallback': 'C typedef (a Python callable is passed)',
    'dQuaternion': 'C type',
    'dReal': 'C type',
    'dSpaceID': 'C type',
    'dTriArrayCallback': 'C typedef (a Python callable is passed)',
    'dTriCallback': 'C typedef (a Python callable is passed)',
    'dTriMeshData': 'class name in prose',
    'dTriMeshDataID': 'C type',
    'dTriRayCallback': 'C typedef (a Python callable is passed)',
    'dTriTriMergeCallback': 'C typedef (a Python callable is passed)',
    'dTrimeshData': 'class name in prose (sic)',
    'dVector3': 'C type',
    'dVector4': 'C type',
    'dXxxClass': 'placeholder for a user class number variable',
}

#: Named elsewhere in the manual but only usable with the collision system.
COLLISION_EXTRAS = ["dMassSetTrimesh"]

#: Names that are integer constants (class numbers and limits), with ODE 0.16.2's values.
CONSTANTS = {
    "dSphereClass": 0, "dBoxClass": 1, "dCapsuleClass": 2, "dCylinderClass": 3,
    "dPlaneClass": 4, "dRayClass": 5, "dConvexClass": 6, "dGeomTransformClass": 7,
    "dTriMeshClass": 8, "dHeightfieldClass": 9, "dFirstSpaceClass": 10,
    "dSimpleSpaceClass": 10, "dHashSpaceClass": 11, "dQuadTreeSpaceClass": 13,
    "dLastSpaceClass": 13, "dFirstUserClass": 14, "dLastUserClass": 17, "dMaxUserClasses": 4,
}

#: Python type aliases standing for the manual's callback typedefs.
CALLBACK_TYPES = ["dAABBTestFn", "dColliderFn", "dGeomDtorFn", "dGetAABBFn", "dGetColliderFnFn"]


def test_lists_are_consistent():
    assert not set(NOT_API) & set(MANUAL_NAMES)
    assert MANUAL_NAMES == sorted(set(MANUAL_NAMES))
    assert set(CONSTANTS) <= set(MANUAL_NAMES)
    assert set(CALLBACK_TYPES) <= set(MANUAL_NAMES)
    assert not set(COLLISION_EXTRAS) & set(MANUAL_NAMES)
    assert len(MANUAL_NAMES) + len(NOT_API) == 184


@pytest.mark.parametrize("name", MANUAL_NAMES + COLLISION_EXTRAS)
def test_manual_name_is_provided(name):
    assert hasattr(ode, name), f"engine.ode lacks {name}"
    assert name in ode.__all__


def test_functions_are_callable():
    missing = [n for n in MANUAL_NAMES + COLLISION_EXTRAS
               if n not in CONSTANTS and n not in CALLBACK_TYPES
               and not callable(getattr(ode, n, None))]
    assert not missing, missing


@pytest.mark.parametrize("name", sorted(CONSTANTS))
def test_constants_have_odes_values(name):
    value = getattr(ode, name)
    assert isinstance(value, int) and not isinstance(value, bool)
    assert value == CONSTANTS[name]
