"""A figure read from a tool's text output: ASCII digits only.

Python's float() and int() read any Unicode decimal digit ("４４６" is 446.0, "٣" is 3) and
digits grouped by underscores ("1_000" is 1000.0). No tool imported writes either: printf
writes ASCII digits in every locale. A report holding them was edited, and its figure is
refused as one that is not a number (round 59: IOzone's table read full-width figures).
"""


def ascii_text(text: str) -> str:
    """text, where it is ASCII without underscores; ValueError otherwise, as float() raises for
    what it cannot read."""
    if not text.isascii() or "_" in text:
        raise ValueError(f"not an ASCII figure: {text[:40]!r}")
    return text


def number(text: str, kind=float):
    """kind(text) of an ASCII figure (ascii_text)."""
    return kind(ascii_text(text))
