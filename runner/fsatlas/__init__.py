"""fsatlas: runs the filesystem benchmark matrix and derives the data the site is built from."""

__version__ = "0.1.0"
# The result-file format version; its history is in schema/result.schema.json.
SCHEMA_VERSION = 1
