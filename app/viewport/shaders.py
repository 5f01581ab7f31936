"""GLSL programs of the viewport and a small compile helper (GL context must be current)."""

from __future__ import annotations

from OpenGL import GL

# Instanced meshes: per-vertex position/normal, per-instance model matrix (4 columns),
# RGBA colour and pick id. u_mode: 0 lit (Phong), 1 flat colour, 2 pick id colour.
MESH_VERT = """
#version 330
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_m0;
layout(location = 3) in vec4 a_m1;
layout(location = 4) in vec4 a_m2;
layout(location = 5) in vec4 a_m3;
layout(location = 6) in vec4 a_color;
layout(location = 7) in float a_pick;
uniform mat4 u_viewproj;
out vec3 v_pos;
out vec3 v_normal;
out vec4 v_color;
flat out float v_pick;
void main() {
    mat4 m = mat4(a_m0, a_m1, a_m2, a_m3);
    vec4 wp = m * vec4(a_pos, 1.0);
    v_pos = wp.xyz;
    // model = R S (rotation times axis scales): its inverse transpose is R S^-1,
    // i.e. m3 * (n / s^2) with s^2 the squared column lengths (cheaper than inverse()).
    mat3 m3 = mat3(m);
    vec3 s2 = vec3(dot(m3[0], m3[0]), dot(m3[1], m3[1]), dot(m3[2], m3[2]));
    v_normal = m3 * (a_normal / max(s2, vec3(1e-12)));
    v_color = a_color;
    v_pick = a_pick;
    gl_Position = u_viewproj * wp;
}
"""

#: Most lights the mesh shader takes (more are ignored).
MAX_LIGHTS = 4

# The light count is a compile-time constant (one program per count, see
# `mesh_fragment_source`): a loop with a uniform bound made llvmpipe shade every
# fragment about twice as slowly (bench/bench_viewport.py). u_light_dir holds unit
# vectors along which the light travels.
MESH_FRAG_TEMPLATE = """
#version 330
const int NLIGHTS = %(nlights)d;
in vec3 v_pos;
in vec3 v_normal;
in vec4 v_color;
flat in float v_pick;
uniform int u_mode;
uniform vec3 u_light_dir[%(max_lights)d];
uniform vec3 u_light_color[%(max_lights)d];
uniform vec3 u_ambient;
uniform vec3 u_eye;
uniform vec4 u_override;
out vec4 frag;
void main() {
    if (u_mode == 2) {
        int i = int(v_pick + 0.5);
        frag = vec4(float(i & 255), float((i >> 8) & 255), float((i >> 16) & 255), 255.0) / 255.0;
        return;
    }
    vec4 base = u_override.a > 0.0 ? u_override : v_color;
    if (u_mode == 1) { frag = base; return; }
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 V = normalize(u_eye - v_pos);
    vec3 c = u_ambient * base.rgb;
    for (int k = 0; k < NLIGHTS; ++k) {
        vec3 L = -u_light_dir[k];
        float d = max(dot(n, L), 0.0);
        vec3 H = normalize(L + V);
        float s = pow(max(dot(n, H), 0.0), 32.0) * 0.2 * step(0.0, d);
        c += u_light_color[k] * (d * base.rgb + s);
    }
    frag = vec4(min(c, vec3(1.0)), base.a);
}
"""



def mesh_fragment_source(nlights: int) -> str:
    """The mesh fragment shader for ``nlights`` lights (0..`MAX_LIGHTS`)."""
    if not 0 <= nlights <= MAX_LIGHTS:
        raise ValueError(f"mesh_fragment_source: nlights must be 0..{MAX_LIGHTS}, got {nlights}")
    return MESH_FRAG_TEMPLATE % {"nlights": nlights, "max_lights": MAX_LIGHTS}


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
