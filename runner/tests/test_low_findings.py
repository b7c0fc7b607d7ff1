"""Issue 61's low findings, each with its test: duplicate PTS system names, a PTS run of 1e999 or
NaN, a YAML alias chain in a --system file, `article new --a/--b` text reaching a shortcode,
and a Markdown report copying result fields verbatim (rendered by Hugo's own goldmark).
(The pull-request check's rename: test_pr_check.py; output paths: test_outfile.py.)"""
import json
import re
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import comparison, shares
from fsatlas.site import report
from testutil import SAMPLES
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

PTS = SAMPLES / "pts" / "schema-two-systems.xml"
REPO = Path(__file__).resolve().parents[2]
QUICK = sorted((REPO / "data" / "results").glob("*quick*.json"))


def _err(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_two_pts_systems_of_one_name_are_refused_not_mixed(tmp_path, capsys):
    text = PTS.read_text()
    ids = re.findall(r"<System>\s*<Identifier>([^<]*)</Identifier>", text)
    assert len(ids) == 2 and ids[0] != ids[1]
    for twin in (ids[0], ids[0] + "  ", ids[0] + "x" * 300):  # the same name, padded, equal up to the kept length
        both = tmp_path / "twins.xml"
        source = text.replace(f"<Identifier>{ids[1]}</Identifier>", f"<Identifier>{twin}</Identifier>")
        if len(twin) > 250:  # names equal in their first MAX_FIELD characters: entries too
            source = source.replace(f"<Identifier>{ids[0]}</Identifier>", f"<Identifier>{twin}y</Identifier>")
        both.write_text(source)
        assert main(["import", "pts", str(both), "--out", str(tmp_path / "o")]) == 1
        err = _err(capsys)
        assert "twins.xml" in err and "two <System> elements named" in err
        assert not (tmp_path / "o" / "results").exists()


@pytest.mark.parametrize("run", ["1e999", "-1e999", "NaN", "nan", "inf", "-Infinity", "1e309", "2e18", "1e13"])
def test_a_pts_run_that_is_no_finite_figure_is_refused_at_its_entry(tmp_path, capsys, run):
    source = tmp_path / "odd.xml"
    # the first Result's first Entry (pts/fio's MB/s, system "ext4 on NVMe"): 1e13 MB/s is 1e19 bytes/s
    source.write_text(PTS.read_text().replace("<RawString>355:358:355</RawString>",
                                              f"<RawString>355:{run}:355</RawString>", 1))
    assert main(["import", "pts", str(source), "--out", str(tmp_path / "o")]) == 1
    assert _err(capsys).startswith(f"fsatlas import: {source}: Result 1 (pts/fio-2.1.0), Entry 'ext4 on NVMe': "
                                   f"RawString: a run of '{run}'")


def test_a_yaml_alias_chain_in_a_system_file_is_refused_at_once(tmp_path, capsys):
    lines = ["system:", "  kernel: 6.1.0", "  os: Debian 12", "  cpu_model: x", "  cpu_count: 4", "  memory_bytes: 1",
             "  virtualization: none", "  a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"  a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 30)]
    system = tmp_path / "system.yaml"
    system.write_text("\n".join(lines) + "\n")
    log = tmp_path / "dd.txt"
    log.write_text("640000 bytes (640 kB, 625 KiB) copied, 0.5 s, 1.3 MB/s\n")
    started = time.monotonic()
    assert main(["import", "dd", str(log), "--filesystem", "ext4", "--system", str(system),
                 "--out", str(tmp_path / "o")]) == 1
    assert time.monotonic() - started < 30  # not a timing target: the 2^depth walk never ends in a test's time
    err = _err(capsys)
    assert f"{system}: line 9: a YAML alias (*a0)" in err
    system.write_text("system: {kernel: 6.1.0, os: Debian 12, cpu_model: x, cpu_count: 4, memory_bytes: 1, "
                      "virtualization: none, notes: \"*a0 &b is text\"}\n")  # an asterisk in a value is no alias
    assert main(["import", "dd", str(log), "--filesystem", "ext4", "--system", str(system),
                 "--out", str(tmp_path / "o")]) == 0
    assert "alias" not in capsys.readouterr().err


@settings(max_examples=60)
@given(side=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40)
       | st.sampled_from(['ext4" >}}{{< chart', "ext4}}", "ext4 xfs", "EXT4", "ext4:", "ext4:defaults\n"]))
def test_article_sides_reach_the_shortcode_only_as_measured_names(tmp_path_factory, side):
    content = tmp_path_factory.mktemp("content")
    code = main(["article", "new", "A title", str(QUICK[0]), "--a", side, "--b", "xfs", "--content", str(content)])
    written = list((content / "articles").glob("*.md")) if (content / "articles").exists() else []
    if code == 0:
        # a measured name in any spelling compare takes: "ext4:" is ext4 (#60 round 16, finding 10)
        assert shares.spelled(shares.configuration(side)) in ("ext4", "xfs", "btrfs", "ext2", "ext3")
        (article,) = written
        for shortcode in re.findall(r"\{\{<(.*?)>\}\}", article.read_text()):
            assert re.fullmatch(r' (chart|comparison)( [a-z]+="[^"{}<>\n]*")+ ', shortcode), shortcode
    else:
        assert not written


class _Rendered(HTMLParser):
    """The tags of a rendered page and the text of each paragraph and table cell."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.texts, self.comments, self._open = set(), [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag in ("p", "td"):
            self._open = []

    def handle_endtag(self, tag):
        if tag in ("p", "td") and self._open is not None:
            self.texts.append("".join(self._open))
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open.append(data)

    def handle_comment(self, data):
        self.comments.append(data)


MARKUP = st.sampled_from(["[x](http://e.invalid)", "![i](http://e.invalid/i.png)", "<script>alert(1)</script>",
                          "<b>bold</b>", "https://evil.example/p", "www.evil.example", "a@b.example", "&lt;", "&#60;",
                          "`code`", "~~del~~", "**strong**", "_em_", "<http://e.invalid>", "[r]: http://e.invalid",
                          "a|b", "\\", "\\[", "ftp://x.example", "mailto:a@b.example", "WWW.X.EXAMPLE"])
TEXT = st.lists(MARKUP | st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12),
                min_size=1, max_size=4).map("".join)


@pytest.mark.site
@settings(max_examples=4)
@given(texts=st.lists(TEXT, min_size=40, max_size=40))
def test_report_fields_render_as_their_own_text_in_hugo(tmp_path_factory, texts):
    """Differential: Hugo's goldmark (linkify and all of the site's extensions on, typographer off
    so that text compares as written) renders each escaped field, in a paragraph and in a table
    cell, as exactly its text: no link, image, emphasis, code or HTML."""
    site = tmp_path_factory.mktemp("hugo")
    (site / "layouts" / "_default").mkdir(parents=True)
    (site / "layouts" / "_default" / "single.html").write_text("{{ .Content }}")
    (site / "config.toml").write_text('baseURL = "http://example.invalid/"\ndisableKinds = ["taxonomy", "term", '
                                      '"RSS", "sitemap", "home", "section", "404", "robotsTXT"]\n'
                                      "[markup.goldmark.extensions]\n  typographer = false\n  linkify = true\n")
    (site / "content").mkdir()
    body = [f"P{i} {report.md_text(t)}\n" for i, t in enumerate(texts)]
    body += ["| Field |", "|---|"] + [f"| T{i} {report.md_text(t)} |" for i, t in enumerate(texts)]
    (site / "content" / "page.md").write_text("---\ntitle: t\n---\n\n" + "\n".join(body) + "\n")
    subprocess.run(["hugo", "--quiet", "-s", str(site), "-d", str(site / "public")], check=True, timeout=120)
    page = _Rendered()
    page.feed((site / "public" / "page" / "index.html").read_text())
    assert page.tags <= {"p", "table", "thead", "tbody", "tr", "th", "td"}, page.tags
    assert not page.comments  # goldmark's <!-- raw HTML omitted -->
    shown = [" ".join(t.split()) for t in page.texts]
    expected = [f"P{i} {' '.join(t.split())}".strip() for i, t in enumerate(texts)]
    expected += [f"T{i} {' '.join(t.split())}".strip() for i, t in enumerate(texts)]
    assert shown == expected


def test_a_markdown_report_shows_a_link_in_a_result_field_as_text():
    a = readable(json.loads(QUICK[0].read_text()))
    b = readable(json.loads(QUICK[1].read_text()))
    b["system"]["cpu_model"] = "[cheap disks](http://e.invalid) ![x](http://e.invalid/x.png) <img src=x>"
    rows = comparison.between(a, b, False)
    text = report.markdown(report.build(a, b, rows, (a["id"], b["id"]), []), "")
    assert "\\[cheap disks\\](http\\://e.invalid) \\!\\[x\\](http\\://e.invalid/x.png) \\<img src=x\\>" in text
    assert not re.search(r"(?<!\\)<img", text) and "](http://" not in text
