"""One module per subcommand; each exposes add_parser(subparsers) and run(args) -> int."""


def list_option(values) -> list:
    """Repeated options that also accept commas: --fs ext4,xfs --fs btrfs."""
    return [item.strip() for value in values or [] for item in value.split(",") if item.strip()]
