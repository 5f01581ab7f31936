"""The 3D viewport: `ViewportWidget` and the pieces it is made of.

- widget.py: the widget the main window lays out (a window container; the public API);
- gl_window.py: the QOpenGLWindow it embeds (painting, mouse, picking, grabs);
- renderer.py: what is drawn (paint order, frames; runs the overlay drawers);
- camera.py: orbit camera from a Webots Viewpoint; transforms.py: 4x4 maths;
- scene.py: render scene built from an engine.world World; meshes.py: geometry meshes;
- geometry_meshes.py: the drawer (mesh and scale) registered per geometry kind;
- mesh_drawer.py: instanced shapes/boundingObjects; line_drawer.py: line batches;
- lod.py: screen-size levels of detail of curved meshes; culling.py: frustum culling;
- overlay_state.py: overlay switches and data (Qt-free, observed by the drawers);
- overlay_drawers.py: the registered overlay drawers (plugin passes, grid,
  boundingObjects, contacts/forces, trails); overlays.py: their line geometry
  and `Trails`; plugin_pass.py: running a plugin draw pass;
- padded_shells.py: the robust contact model's boundary layers as meshes (each
  boundingObject grown by its Solid's padding); boundary_layer_drawer.py: draws
  them translucent right after the Shapes.

Importing the package first configures PyOpenGL (`app.gl_binding`).
"""

from app.gl_binding import configure_pyopengl

configure_pyopengl()

from app.viewport.widget import ViewportWidget  # noqa: E402  (after configure_pyopengl)

__all__ = ["ViewportWidget"]
