"""aifcheck's version, the one place it is written (the package metadata reads it too): a module
with no imports, which every stage may read."""

__version__ = "0.4.0"
