"""Fields a tool's format defines as a host name (issue 61, F61b item 3): bonnie++'s machine name
(the CSV's name field, the table's first column, the name before "-Create--") and fio's
client/server "hostname". Rule: whatever the name's spelling (a single label such as "rakku"
included), import refuses it without --redact and --redact leaves none of it in the raw bundle."""
import tarfile

from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import privacy
from fsatlas.results.importers import bonnie
from testutil import SAMPLES

# a machine name as bonnie++ -m or a host takes it: no comma, no space (the CSV's and table's separators)
NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,20}", fullmatch=True).filter(
    lambda n: n not in privacy.NO_HOST and not n.replace(".", "").isdigit())
SETTINGS = settings(max_examples=6, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _bundle_text(out) -> str:
    (raw,) = (out / "raw").iterdir()
    with tarfile.open(raw) as tar:
        return "".join(tar.extractfile(m).read().decode() for m in tar.getmembers() if m.isfile())


def _import(tmp, source, fmt, *extra) -> tuple[int, str]:
    out = tmp / "out"
    return main(["import", fmt, str(source), "--filesystem", "ext4", "--out", str(out), *extra]), out


@SETTINGS
@given(name=NAMES, sample=st.sampled_from(["bonnie-1.96-stdout.txt", "bonnie-1.97-plus-signs.csv",
                                           "bonnie-1.03c-stdout.txt", "bonnie-2.00-full-stdout.txt",
                                           "bonnie-1.96-files-only-stdout.txt"]))
def test_bonnie_s_machine_name_is_refused_or_redacted_in_any_spelling(tmp_path_factory, capsys, name, sample):
    text = (SAMPLES / "bonnie" / sample).read_text()
    original = {text[a:b] for a, b in bonnie.host_names(text)}
    assert len(original) == 1 and text.count(next(iter(original))) == len(bonnie.host_names(text))
    tmp = tmp_path_factory.mktemp("bonnie")
    source = tmp / sample
    source.write_text(text.replace(next(iter(original)), name))
    assert {source.read_text()[a:b] for a, b in bonnie.host_names(source.read_text())} == {name}
    code, out = _import(tmp, source, "bonnie")
    err = capsys.readouterr().err
    assert code == 1 and "looks like a host name" in err and "--redact replaces it" in err, err
    code, out = _import(tmp, source, "bonnie", "--redact")
    assert code == 0, capsys.readouterr().err
    kept = _bundle_text(out)
    assert not {kept[a:b] for a, b in bonnie.host_names(kept)} - {privacy.REDACTED}


@SETTINGS
@given(name=NAMES)
def test_fio_s_client_hostname_is_refused_or_redacted_in_any_spelling(tmp_path_factory, capsys, name):
    text = (SAMPLES / "fio" / "fio-3.33-client-server-two-groups.json").read_text()
    tmp = tmp_path_factory.mktemp("fio")
    source = tmp / "client.json"
    source.write_text(text.replace('"hostname" : "127.0.0.1"', f'"hostname" : "{name}"'))
    code, out = _import(tmp, source, "fio")
    err = capsys.readouterr().err
    assert code == 1 and "hostname looks like a host name" in err, err
    code, out = _import(tmp, source, "fio", "--redact")
    assert code == 0, capsys.readouterr().err
    assert f'"hostname" : "{name}"' not in _bundle_text(out) and '"hostname" : "[redacted]"' in _bundle_text(out)


def test_loopback_names_no_machine():
    text = (SAMPLES / "fio" / "fio-3.33-client-server-two-groups.json").read_text()
    assert '"hostname" : "127.0.0.1"' in text and privacy.tool_host_names(text) == []


def test_the_runners_own_client_labels_are_no_host_names():
    # run/clients.py writes client-1, client-2 ... in place of each client's address: they name nothing,
    # while a name beside them in the same field is still found
    from fsatlas.results import privacy
    text = '{"client_stats": [{"hostname": "client-1"}, {"hostname": "client-12"}, {"hostname": "zeus"}]}'
    assert [text[a:b] for a, b in privacy.tool_host_names(text)] == ["zeus"]
