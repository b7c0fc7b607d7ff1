"""YAML reading, through libyaml where PyYAML was built with it: several times faster than the
pure-Python parser, which every rebuild would otherwise pay for the curated data and matrix."""
import decimal
import math

import yaml


_SAFE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SAFE):
    """The safe loader, refusing a mapping that holds one key twice: YAML readers keep the last
    value silently, so a curated file would publish another figure than the text a reviewer
    reads (#60 round 18: a history row's write_mb_s given twice). Refused as any YAML error is,
    with the line of the second key."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            self.flatten_mapping(node)
            seen = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                try:
                    twice = key in seen
                    seen.add(key)
                except TypeError:  # an unhashable key: the constructor's own error says so below
                    break
                if twice:
                    raise yaml.constructor.ConstructorError(
                        "while reading a mapping", node.start_mark, f"found the key {key!r} twice", key_node.start_mark)
        return super().construct_mapping(node, deep)

    def construct_exact_float(self, node):
        """A float, refused where the double it reads as is not the number written: 9007199254740993.0
        reads as ...992.0, and a page would show a figure the file does not hold (#60 round 19)."""
        value = self.construct_yaml_float(node)
        if not reads_as_written(node.value, value):
            raise yaml.constructor.ConstructorError(
                None, None, f"found the number {node.value}, which reads as {value!r}: expected a number a "
                            f"browser holds as written (at most 17 significant digits)", node.start_mark)
        return value


_Loader.add_constructor("tag:yaml.org,2002:float", _Loader.construct_exact_float)
_LOADER = _Loader


def reads_as_written(text: str, value: float) -> bool:
    """Whether a finite float's decimal text is the number the double holds (its shortest repr, as
    a browser prints it): 23.80 and 1.0e+300 are, 9007199254740993.0 and 150119987579016:33.0
    (YAML's base 60) are not. A text that is not a number (.inf) or a value that is not finite is
    not judged here."""
    plain = text.replace("_", "").strip()
    try:
        if ":" in plain:  # YAML 1.1's base 60 (190:20:30.15): each part but the last is an integer
            sign = -1 if plain.startswith("-") else 1
            written = decimal.Decimal(0)
            for part in plain.lstrip("+-").split(":"):
                written = written * 60 + decimal.Decimal(part)
            written *= sign
        else:
            written = decimal.Decimal(plain)
    except decimal.InvalidOperation:
        return True
    return not (written.is_finite() and math.isfinite(value)) or written == decimal.Decimal(repr(value))


def load(stream):
    """Like yaml.safe_load (plain data only, no Python objects), a key twice in one mapping refused."""
    return yaml.load(stream, Loader=_LOADER)


def scalar(text: str):
    """What YAML reads one unquoted scalar as (1_000, 0x1F, 1:30, 1.5e3, or the text itself), a
    float not judged by reads_as_written: for a caller that judges the number itself. None where
    the text is not one YAML scalar."""
    try:
        return yaml.load(text, Loader=_SAFE)
    except (yaml.YAMLError, ValueError):  # ValueError: an integer of over 4,300 digits (int()'s limit)
        return None


# How deep a user's YAML document may nest (a machine's facts: system: {cpu: ...}, 2 or 3 levels).
# libyaml's parser keeps its nesting on a heap stack, but building the document recurses in C a
# level a nested node: 25,000 brackets in a 64 KB --system file ([[[[...) overran the C stack
# and Python died of a segmentation fault (exit 139, no message).
MAX_DEPTH = 64


def load_plain(text: str, where: str):
    """A YAML document a user hands in (import --system), as plain data: no aliases (*name). An
    alias is a reference, not a copy, so a chain of them (a: &a [x, x], b: &b [*a, *a], ...) reads
    at once into a few nodes, which every later walk of the data (the schema, the privacy scan,
    JSON) then visits 2^depth times: a 30-line file kept import busy past 60 s. The events are
    looked at first (libyaml's parser, no document built), an alias, or nesting deeper than
    MAX_DEPTH, refused with its line."""
    from .errors import UserError
    depth = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent):
            raise UserError(f"a YAML alias (*{event.anchor}); expected plain values, each written out",
                            where=f"{where}: line {event.start_mark.line + 1}")
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise UserError(f"nested more than {MAX_DEPTH} levels deep; expected a machine's facts "
                                "(a mapping of a few levels)", where=f"{where}: line {event.start_mark.line + 1}")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return yaml.load(text, Loader=_LOADER)
