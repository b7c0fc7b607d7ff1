"""Issue 62, fourth round, on the site built from every committed result: no two rows of a result
page's table read the same."""
import json
from html.parser import HTMLParser

import pytest

from fsatlas.results.resultfile import readable
from sitebuild import REPO

pytestmark = pytest.mark.site
COMMITTED = {r["id"]: r for r in (readable(json.loads(p.read_text())) for p in sorted((REPO / "data" / "results").glob("*.json")))}


class _Rows(HTMLParser):
    """Each table's body rows as the text of their cells, a cell spanning rows (rowspan) read in
    each row it spans."""

    def __init__(self):
        super().__init__()
        self.tables, self.row, self.cell, self.spans, self.head = [], None, None, [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append([])
            self.spans = []
        elif tag == "thead":
            self.head = True
        elif tag == "tr" and self.tables:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = [int(attrs.get("rowspan") or 1), []]

    def handle_endtag(self, tag):
        if tag == "thead":
            self.head = False
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            carried = [s for s in self.spans if s[0] > 0]
            texts = [" ".join("".join(s[1]).split()) for s in carried] + [" ".join("".join(c[1]).split()) for c in self.row]
            for s in carried:
                s[0] -= 1
            self.spans = [s for s in carried if s[0] > 0] + [[c[0] - 1, c[1]] for c in self.row if c[0] > 1]
            if not self.head:
                self.tables[-1].append(tuple(texts))
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1].append(data)


def test_no_two_rows_of_a_result_pages_table_read_the_same(committed_root):
    """Every table of every committed result's page (the page of every cell as well), parsed
    from the built HTML: no two body rows read the same. The ntfs cells of run 143616Z, failed
    at three file sizes, read "ntfs | small-files | defaults | failed" three times."""
    pages = sorted((committed_root / "public" / "results").glob("*/**/index.html"))
    assert {p.relative_to(committed_root / "public" / "results").parts[0] for p in pages} >= set(COMMITTED)
    checked = 0
    for path in pages:
        rows = _Rows()
        rows.feed(path.read_text())
        for table in rows.tables:
            seen = [r for r in table if table.count(r) > 1]
            assert not seen, (str(path), seen[:2])
            checked += len(table)
    assert checked > 1000
    small = [r for r in _rows_of(committed_root / "public" / "results" / "20261127T143616Z-m-b6d0b06748-standard" / "index.html")
             if r[:2] == ("ntfs", "small-files file_size=100")]
    assert small, "the small-files row names its file size"


def _rows_of(path):
    rows = _Rows()
    rows.feed(path.read_text())
    return [r for t in rows.tables for r in t]
