"""What names a person in a pasted shell session (adversary 78, finding 3). Rule: a shell prompt's
user and host, in any common distribution's default style, are refused, and --redact replaces
them together, leaving the folder and the prompt's sign. Words with an @ that are no prompt (a
version spec, a systemd unit) pass."""
import tarfile

from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import privacy
from testutil import SAMPLES

# user and host names as systems allow them (Windows' with capitals); a host holds a letter
USERS = st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_.-]{0,15}\Z")
HOSTS = st.from_regex(r"\A[A-Za-z0-9][A-Za-z0-9-]{0,20}\Z").filter(lambda h: any(c.isalpha() for c in h))
FOLDERS = st.sampled_from(["~", "~/bench", "/mnt/test", "bench", "/", "fio runs"])
# the default prompt of each family, {sign} $ or # (root); the command follows it
STYLES = {"debian": "{u}@{h}:{d}{sign} ", "red hat, arch": "[{u}@{h} {d}]{sign} ", "macos zsh": "{u}@{h} {d} % ",
          "gentoo": "{u}@{h} {d} {sign} ", "fish": "{u}@{h} {d}> ", "git bash": "{u}@{h} MINGW64 {d}\n{sign} ",
          "with a git branch": "{u}@{h} {d} (main){sign} "}
COMMAND = "dd if=/dev/zero of=/mnt/test/f bs=1M count=64 conv=fdatasync"


def _prompt(style, user, host, folder, sign):
    if style == "debian" and not folder.startswith(("~", "/")):
        folder = "~/" + folder  # Debian's \w: a folder from the home or the root
    return STYLES[style].format(u=user, h=host, d=folder, sign=sign)


@settings(max_examples=300)
@given(style=st.sampled_from(sorted(STYLES)), user=USERS, host=HOSTS, folder=FOLDERS, sign=st.sampled_from("$#"))
def test_a_prompt_s_user_and_host_are_found_and_redacted_together(style, user, host, folder, sign):
    line = _prompt(style, user, host, folder, sign) + COMMAND
    assert "a user name" in (privacy.finding(line) or ""), line
    assert privacy.raw_finding(line), line
    redacted, counts = privacy.redact(line)
    assert redacted == line.replace(f"{user}@{host}", privacy.REDACTED, 1), (line, redacted)
    assert counts == {"a user name": 1} and privacy.raw_finding(redacted) is None, (line, counts)


def test_words_with_an_at_that_are_no_prompt_pass():
    for line in ("spack install fio@3.35 %gcc@12.2.0", "fio@3.35 used 50 % of the disk", "getty@tty1 started",
                 "python@3.11 > log", "@media screen", "tag v@2 # note"):
        assert privacy.finding(line) is None and privacy.raw_finding(line) is None, line


SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _kept(out) -> str:
    (raw,) = (out / "raw").iterdir()
    with tarfile.open(raw) as tar:
        return "".join(tar.extractfile(m).read().decode() for m in tar.getmembers() if m.isfile())


@SETTINGS
@given(style=st.sampled_from(sorted(STYLES)), user=USERS, host=HOSTS, sign=st.sampled_from("$#"))
def test_a_dd_session_with_a_prompt_is_refused_and_redact_keeps_neither_name(tmp_path_factory, capsys, style, user,
                                                                             host, sign):
    tmp = tmp_path_factory.mktemp("session")
    prompt = _prompt(style, user, host, "~", sign)
    source = tmp / "session.txt"
    source.write_text(prompt + COMMAND + "\n" + (SAMPLES / "dd" / "dd-9.1-english.txt").read_text() + prompt + "\n")
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp / "a")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{source}: " in err and "line 1 looks like a user name" in err, err
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp / "b"), "--redact"]) == 0
    capsys.readouterr()
    kept = _kept(tmp / "b")
    assert f"{user}@{host}" not in kept and kept.startswith(prompt.replace(f"{user}@{host}", privacy.REDACTED)), kept

