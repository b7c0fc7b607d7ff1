"""The one shape of the aggregates across results: per key, keep the entry of the result that
ranks first (newest, or most complete). Its outcome does not depend on the order results come
in, so a rebuild may fold new results into a saved state instead of reading every result again.
"""


class Best:
    """key -> (rank, value), keeping the highest rank offered (the lowest with lowest=True)."""

    def __init__(self, lowest: bool = False):
        self.lowest, self.items = lowest, {}

    def offer(self, key, rank: tuple, make) -> None:
        """make() builds the value, called only when this rank wins."""
        have = self.items.get(key)
        if have is None or (rank < have[0] if self.lowest else rank > have[0]):
            self.items[key] = (rank, make())

    def get(self, key):
        have = self.items.get(key)
        return have[1] if have else None

    def sorted_values(self) -> list:
        return [value for _, (_, value) in sorted(self.items.items())]

    def state(self) -> list:
        """JSON: [[key, rank, value], ...] (tuple keys become lists)."""
        return [[key, list(rank), value] for key, (rank, value) in self.items.items()]

    def merge(self, state: list) -> None:
        """Offers each entry of another Best's state(), in its order: the outcome of folding
        that Best's items here after this one's."""
        for key, rank, value in state:
            self.offer(tuple(key) if isinstance(key, list) else key, tuple(rank), lambda: value)

    def restore(self, state: list) -> "Best":
        self.items = {}
        self.merge(state)
        return self
