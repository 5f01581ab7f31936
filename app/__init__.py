"""Odeon desktop application (PySide6). Imports ``engine``; never imported by it."""
