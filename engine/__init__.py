"""Odeon engine: everything that runs without a screen (no Qt, no OpenGL)."""
