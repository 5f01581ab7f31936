"""`Camera`: images the app renders from the camera's point of view (BGRA
bytes, row-major from the top-left; the plugin's draw runs with view = the
robot's name). Without the app (``odeon run``) there is no renderer and
`getImage` returns None."""

from __future__ import annotations

from .device import Sensor


class Camera(Sensor):
    """A planar camera looking along its +x axis, +z up."""

    def getImage(self) -> bytes | None:
        image = self._sample("wb_camera_get_image")
        return image if isinstance(image, bytes) else None

    def getImageArray(self) -> list | None:
        image = self.getImage()
        if image is None:
            return None
        width, height = self.getWidth(), self.getHeight()
        return [[[image[4 * (y * width + x) + 2], image[4 * (y * width + x) + 1],
                  image[4 * (y * width + x)]] for y in range(height)] for x in range(width)]

    def getWidth(self) -> int:
        return self._info.get("width", 64)

    def getHeight(self) -> int:
        return self._info.get("height", 64)

    def getFov(self) -> float:
        return self._info.get("fov", 0.7854)

    def getNear(self) -> float:
        return self._info.get("near", 0.01)

    def getFar(self) -> float:
        return self._info.get("far", 0.0)

    @staticmethod
    def imageGetRed(image: bytes, width: int, x: int, y: int) -> int:
        return image[4 * (y * width + x) + 2]

    @staticmethod
    def imageGetGreen(image: bytes, width: int, x: int, y: int) -> int:
        return image[4 * (y * width + x) + 1]

    @staticmethod
    def imageGetBlue(image: bytes, width: int, x: int, y: int) -> int:
        return image[4 * (y * width + x)]

    @staticmethod
    def imageGetGray(image: bytes, width: int, x: int, y: int) -> int:
        k = 4 * (y * width + x)
        return (image[k] + image[k + 1] + image[k + 2]) // 3

    @staticmethod
    def imageGetGrey(image: bytes, width: int, x: int, y: int) -> int:
        return Camera.imageGetGray(image, width, x, y)

    @property
    def image(self) -> bytes | None:
        return self.getImage()

    @property
    def width(self) -> int:
        return self.getWidth()

    @property
    def height(self) -> int:
        return self.getHeight()

    @property
    def fov(self) -> float:
        return self.getFov()
