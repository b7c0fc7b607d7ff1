"""YAML reading, through libyaml where PyYAML was built with it: several times faster than the
pure-Python parser, which every rebuild would otherwise pay for the curated data and matrix."""
import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(stream):
    """Like yaml.safe_load (plain data only, no Python objects)."""
    return yaml.load(stream, Loader=_LOADER)


def load_plain(text: str, where: str):
    """A YAML document a user hands in (import --system), as plain data: no aliases (*name). An
    alias is a reference, not a copy, so a chain of them (a: &a [x, x], b: &b [*a, *a], ...) reads
    at once into a few nodes, which every later walk of the data (the schema, the privacy scan,
    JSON) then visits 2^depth times: a 30-line file kept import busy past 60 s. The events are
    looked at first (libyaml's parser, no document built), an alias refused with its line."""
    from .errors import UserError
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent):
            raise UserError(f"a YAML alias (*{event.anchor}); expected plain values, each written out",
                            where=f"{where}: line {event.start_mark.line + 1}")
    return yaml.load(text, Loader=_LOADER)
