"""GLSL programs of the viewport and a small compile helper (GL context must be current)."""

from __future__ import annotations

import enum
from collections.abc import Callable

from OpenGL import GL

# The inputs of every instanced mesh program (the buffers of mesh_drawer.py):
# per-vertex position/normal, per-instance model matrix (4 columns), RGBA colour
# and pick id; and the normal's transform to world axes.
_INSTANCED_INPUTS = """
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_m0;
layout(location = 3) in vec4 a_m1;
layout(location = 4) in vec4 a_m2;
layout(location = 5) in vec4 a_m3;
layout(location = 6) in vec4 a_color;
layout(location = 7) in float a_pick;
uniform mat4 u_viewproj;
vec3 world_normal(mat4 m) {
    // model = R S (rotation times axis scales): its inverse transpose is R S^-1,
    // i.e. m3 * (n / s^2) with s^2 the squared column lengths (cheaper than inverse()).
    mat3 m3 = mat3(m);
    vec3 s2 = vec3(dot(m3[0], m3[0]), dot(m3[1], m3[1]), dot(m3[2], m3[2]));
    return m3 * (a_normal / max(s2, vec3(1e-12)));
}
"""

# Instanced meshes shaded per fragment. u_mode: 0 lit (Phong), 1 flat colour, 2 pick
# id colour.
MESH_VERT = """
#version 330
""" + _INSTANCED_INPUTS + """
out vec3 v_pos;
out vec3 v_normal;
flat out vec4 v_color;  // per instance: nothing to interpolate
flat out float v_pick;
void main() {
    mat4 m = mat4(a_m0, a_m1, a_m2, a_m3);
    vec4 wp = m * vec4(a_pos, 1.0);
    v_pos = wp.xyz;
    v_normal = world_normal(m);
    v_color = a_color;
    v_pick = a_pick;
    gl_Position = u_viewproj * wp;
}
"""

#: Most lights the mesh shader takes (more are ignored).
MAX_LIGHTS = 4

# Blinn-Phong over the directional lights, shared by every way of shading. The
# light count is a compile-time constant (one program per count, see
# `mesh_fragment_source`): a loop with a uniform bound made llvmpipe shade every
# fragment about twice as slowly (bench/bench_viewport.py). u_light_dir holds unit
# vectors along which the light travels; n and V are unit vectors (surface normal,
# towards the eye). `light_share` takes light k's two cosines: with the direction
# towards the light and with the half vector between it and V.
_LIGHTING = """
const int NLIGHTS = %(nlights)d;
uniform vec3 u_light_dir[%(max_lights)d];
uniform vec3 u_light_color[%(max_lights)d];
uniform vec3 u_ambient;
uniform vec3 u_eye;
uniform vec4 u_override;
vec3 light_share(int k, float n_dot_l, float n_dot_h, vec3 base) {
    // x^32 by five squarings: llvmpipe evaluates pow() as exp2(32 log2 x)
    float x = max(n_dot_h, 0.0);
    x *= x; x *= x; x *= x; x *= x; x *= x;
    return u_light_color[k] * (max(n_dot_l, 0.0) * base + x * 0.2);
}
vec4 lit(vec3 n, vec3 V, vec4 base) {
    vec3 c = u_ambient * base.rgb;
    for (int k = 0; k < NLIGHTS; ++k) {
        vec3 L = -u_light_dir[k];
        c += light_share(k, dot(n, L), dot(n, normalize(L + V)), base.rgb);
    }
    return vec4(min(c, vec3(1.0)), base.a);
}
"""

# The picking colour: the pick id's three low bytes as RGB.
_PICK_COLOR = """
vec4 pick_color(float pick) {
    int i = int(pick + 0.5);
    return vec4(float(i & 255), float((i >> 8) & 255), float((i >> 16) & 255), 255.0) / 255.0;
}
"""

# Shaded per fragment (Phong): the normal and position are interpolated.
MESH_FRAG_TEMPLATE = """
#version 330
in vec3 v_pos;
in vec3 v_normal;
flat in vec4 v_color;
flat in float v_pick;
uniform int u_mode;
out vec4 frag;
""" + _LIGHTING + _PICK_COLOR + """
void main() {
    if (u_mode == 2) { frag = pick_color(v_pick); return; }
    vec4 base = u_override.a > 0.0 ? u_override : v_color;
    if (u_mode == 1) { frag = base; return; }
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) n = -n;
    frag = lit(n, normalize(u_eye - v_pos), base);
}
"""

# Shaded per vertex (Gouraud), for instances that look small and for planes (see
# mesh_drawer.py): the fragment stage only writes the interpolated colour. A software
# GL driver sets up and interpolates one varying instead of four, and each fragment
# does no lighting, which halves the cost of a frame of a 1000-body pile. TWO_SIDED
# 0: front faces only (closed meshes drawn with back faces culled); 1: flat meshes
# (planes) seen from either side, lit on the side the eye is on. Every point p of a
# plane of normal n has the same sign of dot(n, eye - p), so its vertices agree on
# the side and the fragments still take one varying.
MESH_VERT_VERTEX_LIT_TEMPLATE = """
#version 330
#define TWO_SIDED %(two_sided)d
""" + _INSTANCED_INPUTS + """
uniform int u_mode;
out vec4 v_color;
""" + _LIGHTING + _PICK_COLOR + """
void main() {
    mat4 m = mat4(a_m0, a_m1, a_m2, a_m3);
    vec4 wp = m * vec4(a_pos, 1.0);
    gl_Position = u_viewproj * wp;
    vec4 base = u_override.a > 0.0 ? u_override : a_color;
    if (u_mode == 2) {
        v_color = pick_color(a_pick);
    } else if (u_mode == 1) {
        v_color = base;
    } else {
        vec3 n = normalize(world_normal(m));
        vec3 V = normalize(u_eye - wp.xyz);
#if TWO_SIDED
        if (dot(n, V) < 0.0) n = -n;
#endif
        v_color = lit(n, V, base);
    }
}
"""

MESH_FRAG_VERTEX_LIT = """
#version 330
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
"""


def vertex_lit_sources(nlights: int, two_sided: bool) -> tuple[str, str]:
    """(vertex, fragment) sources of the per-vertex lit program."""
    values = dict(_check_lights(nlights), two_sided=int(two_sided))
    return MESH_VERT_VERTEX_LIT_TEMPLATE % values, MESH_FRAG_VERTEX_LIT


# Spheres drawn as impostors (see mesh_drawer.py): one square per sphere, facing the
# eye in the plane through the centre, just big enough to hold the sphere's outline.
# The cone from the eye tangent to the sphere is round about the line from the eye to
# the centre, so it cuts that plane in a circle: the unit disc of the square's
# coordinates (u, v) is exactly the sphere's outline, and the fragments outside it are
# dropped. Inside, a fragment shades the point of the sphere seen along the centre's
# line of sight, n = u ax + v ay + sqrt(1 - u^2 - v^2) (-f) in the square's frame
# (ax, ay across, f from the eye to the centre): the exact point seen along the
# fragment's own ray differs by at most the cone's half-angle asin(r / d), under 6
# degrees while an impostor's radius is at most 64 px in a 45-degree view of 600 px
# (mesh_drawer.IMPOSTOR_MAX_PX). What a fragment needs is then linear in n: its clip z
# and w, and per light the cosines with the light and with the half vector (the view
# direction taken as -f for the whole sphere), so the vertex stage hands their
# coefficients down as flat varyings and a fragment does a square root and a few dot
# products. Two triangles per sphere instead of 80 to 5120 (a software GL driver sets
# up every triangle on the CPU), and about a third of the fragment work of tracing
# each fragment's ray (bench/bench_viewport.py). Perspective views only.
SPHERE_IMPOSTOR_VERT_TEMPLATE = """
#version 330
""" + _INSTANCED_INPUTS + _LIGHTING + """
out vec2 v_uv;                       // the square's coordinates, the outline at |uv| = 1
flat out vec2 v_centre_zw;           // clip z, w of the centre
flat out vec3 v_clip_z;              // clip z of the shaded point: v_centre_zw.x + dot(., n)
flat out vec3 v_clip_w;              // and its clip w
flat out vec3 v_diffuse[%(max_lights)d];   // cos(n, light k) = dot(., n)
flat out vec3 v_half[%(max_lights)d];      // cos(n, half vector k) = dot(., n)
flat out vec4 v_color;
flat out float v_pick;
void main() {
    // a unit sphere scaled uniformly: its radius is the length of a model column
    vec3 c = a_m3.xyz;
    float r = length(a_m0.xyz);
    vec3 f = c - u_eye;
    float d = length(f);
    f /= d;
    vec3 helper = abs(f.z) < 0.9 ? vec3(0.0, 0.0, 1.0) : vec3(1.0, 0.0, 0.0);
    vec3 ax = normalize(cross(f, helper));
    vec3 ay = cross(ax, f);
    // the tangent cone (half-angle asin(r / d)) meets the plane through c normal to f
    // in a circle of radius d tan(asin(r / d))
    float half_size = r * d / sqrt(max(d * d - r * r, 1e-12));
    gl_Position = u_viewproj * vec4(c + (ax * a_pos.x + ay * a_pos.y) * half_size, 1.0);
    v_uv = a_pos.xy * (half_size / r);
    // the shaded point is c + r (n.x ax + n.y ay - n.z f): its clip coordinates are
    // the centre's plus r times those of the three axes, weighted by n
    vec4 cx = u_viewproj * vec4(ax * r, 0.0);
    vec4 cy = u_viewproj * vec4(ay * r, 0.0);
    vec4 cz = u_viewproj * vec4(-f * r, 0.0);
    vec4 centre = u_viewproj * vec4(c, 1.0);
    v_centre_zw = centre.zw;
    v_clip_z = vec3(cx.z, cy.z, cz.z);
    v_clip_w = vec3(cx.w, cy.w, cz.w);
    for (int k = 0; k < NLIGHTS; ++k) {
        vec3 L = -u_light_dir[k];
        vec3 H = normalize(L - f);
        v_diffuse[k] = vec3(dot(ax, L), dot(ay, L), -dot(f, L));
        v_half[k] = vec3(dot(ax, H), dot(ay, H), -dot(f, H));
    }
    v_color = a_color;
    v_pick = a_pick;
}
"""

SPHERE_IMPOSTOR_FRAG_TEMPLATE = """
#version 330
in vec2 v_uv;
flat in vec2 v_centre_zw;
flat in vec3 v_clip_z;
flat in vec3 v_clip_w;
flat in vec3 v_diffuse[%(max_lights)d];
flat in vec3 v_half[%(max_lights)d];
flat in vec4 v_color;
flat in float v_pick;
uniform int u_mode;
out vec4 frag;
""" + _LIGHTING + _PICK_COLOR + """
void main() {
    float rho2 = dot(v_uv, v_uv);
    if (rho2 > 1.0) discard;
    vec3 n = vec3(v_uv, sqrt(1.0 - rho2));
    gl_FragDepth = (gl_DepthRange.diff * (v_centre_zw.x + dot(v_clip_z, n))
                    / (v_centre_zw.y + dot(v_clip_w, n))
                    + gl_DepthRange.near + gl_DepthRange.far) * 0.5;
    if (u_mode == 2) { frag = pick_color(v_pick); return; }
    vec4 base = u_override.a > 0.0 ? u_override : v_color;
    if (u_mode == 1) { frag = base; return; }
    // _LIGHTING's lit(), its cosines read off the coefficients
    vec3 c = u_ambient * base.rgb;
    for (int k = 0; k < NLIGHTS; ++k)
        c += light_share(k, dot(n, v_diffuse[k]), dot(n, v_half[k]), base.rgb);
    frag = vec4(min(c, vec3(1.0)), base.a);
}
"""


def _check_lights(nlights: int) -> dict[str, int]:
    if not 0 <= nlights <= MAX_LIGHTS:
        raise ValueError(f"mesh shader: nlights must be 0..{MAX_LIGHTS}, got {nlights}")
    return {"nlights": nlights, "max_lights": MAX_LIGHTS}


def mesh_fragment_source(nlights: int) -> str:
    """The per-fragment mesh shader for ``nlights`` lights (0..`MAX_LIGHTS`)."""
    return MESH_FRAG_TEMPLATE % _check_lights(nlights)


class Shading(enum.Enum):
    """The ways the mesh drawer shades instances, each with its own programs."""

    PER_FRAGMENT = "per fragment"
    PER_VERTEX = "per vertex"
    PER_VERTEX_TWO_SIDED = "per vertex, both sides"
    SPHERE_IMPOSTOR = "sphere impostor"


#: Shading -> (light count -> (vertex source, fragment source)).
PROGRAM_SOURCES: dict[Shading, Callable[[int], tuple[str, str]]] = {
    Shading.PER_FRAGMENT: lambda n: (MESH_VERT, mesh_fragment_source(n)),
    Shading.PER_VERTEX: lambda n: vertex_lit_sources(n, two_sided=False),
    Shading.PER_VERTEX_TWO_SIDED: lambda n: vertex_lit_sources(n, two_sided=True),
    Shading.SPHERE_IMPOSTOR: lambda n: (SPHERE_IMPOSTOR_VERT_TEMPLATE % _check_lights(n),
                                        SPHERE_IMPOSTOR_FRAG_TEMPLATE % _check_lights(n)),
}


# Coloured lines (grid, contacts, forces, trails).
LINE_VERT = """
#version 330
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_color;
uniform mat4 u_viewproj;
out vec4 v_color;
void main() { v_color = a_color; gl_Position = u_viewproj * vec4(a_pos, 1.0); }
"""

LINE_FRAG = """
#version 330
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
"""


def compile_program(vertex: str, fragment: str) -> int:
    """Link a program from two sources; raises RuntimeError with the GL log on failure."""
    prog = GL.glCreateProgram()
    shaders = []
    for kind, src in ((GL.GL_VERTEX_SHADER, vertex), (GL.GL_FRAGMENT_SHADER, fragment)):
        sh = GL.glCreateShader(kind)
        GL.glShaderSource(sh, src)
        GL.glCompileShader(sh)
        if not GL.glGetShaderiv(sh, GL.GL_COMPILE_STATUS):
            raise RuntimeError(f"shader compile error: {GL.glGetShaderInfoLog(sh)!r}")
        GL.glAttachShader(prog, sh)
        shaders.append(sh)
    GL.glLinkProgram(prog)
    if not GL.glGetProgramiv(prog, GL.GL_LINK_STATUS):
        raise RuntimeError(f"program link error: {GL.glGetProgramInfoLog(prog)!r}")
    for sh in shaders:
        GL.glDetachShader(prog, sh)
        GL.glDeleteShader(sh)
    return int(prog)
