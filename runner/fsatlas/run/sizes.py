"""Sizes as the matrix and profiles write them ('512M', '2G'): read by the matrix and by the
workloads that size their files."""
import re

from ..errors import UserError

_SIZE = re.compile(r"^(\d+)([KMGT]?)$")


def parse_size(text, where: str = "", field_name: str = "") -> int:
    """'512M' -> bytes (powers of 1024)."""
    match = _SIZE.match(str(text).strip())
    if not match:
        raise UserError(where=where, field=field_name, expected="a size such as 512M or 2G",
                        found=repr(text))
    number, suffix = match.groups()
    return int(number) * 1024 ** " KMGT".index(suffix or " ")
