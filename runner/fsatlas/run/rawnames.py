"""The runner's one rule for the name of a cell's raw folder: a key may hold any mount or mkfs
option, a folder name may not."""
import re


def raw_dir_name(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=,+-]", "_", key.replace("|", "__"))
