"""fsatlas: runs the filesystem benchmark matrix and derives the data the site is built from."""
from . import compiled

__version__ = "0.1.0"
# The result-file format version; its history is in schema/result.schema.json.
SCHEMA_VERSION = 2  # 1 is still read (resultfile.SCHEMA_FILES)
compiled.install()  # the hot modules compiled by `make setup`, where made from their present source
