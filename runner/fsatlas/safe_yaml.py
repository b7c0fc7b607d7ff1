"""YAML reading, through libyaml where PyYAML was built with it: several times faster than the
pure-Python parser, which every rebuild would otherwise pay for the curated data and matrix."""
import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(stream):
    """Like yaml.safe_load (plain data only, no Python objects)."""
    return yaml.load(stream, Loader=_LOADER)
