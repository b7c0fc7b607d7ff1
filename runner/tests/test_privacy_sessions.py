"""What names a person or a machine in a pasted shell session (adversary 78, findings 3 and 8).
Rules: a shell prompt's user and host, in any common distribution's default style, are refused,
and --redact replaces them together, leaving the folder and the prompt's sign; a home folder
under any of the roots systems make them in (a group's or an index's level between) is refused,
and --redact replaces the root and the user's name; uname -a's node name is refused and replaced
as IOzone's is. Words with an @ that are no prompt (a version spec, a systemd unit) and folders
that are no home pass."""
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


# Where systems make homes: /home (also below /export, /var, /nfs), /home1 (TACC, a group's number
# between it and the name), /homes (a Synology's or QNAP's /volume1/homes; NERSC's
# /global/homes/<letter>/), /nethome, /Users and /users, /u, udisks' /media and /run/media.
PREFIXES = st.sampled_from(["", "/export", "/var", "/nfs", "/volume1", "/global"])
ROOTS = st.sampled_from(["home", "home1", "home2", "homes", "nethome", "Users", "users", "u", "media", "run/media"])
NAMES = st.from_regex(r"\A[a-z_][a-z0-9_.-]{1,15}\Z")


def _level(root):
    """What may stand between a root and the name."""
    return {"home1": st.from_regex(r"\A[0-9]{1,6}/\Z"), "home2": st.from_regex(r"\A[0-9]{1,6}/\Z"),
            "homes": st.from_regex(r"\A[a-z]/\Z")}.get(root, st.nothing())


HOMES = ROOTS.flatmap(lambda root: st.tuples(st.just(root), st.one_of(st.just(""), _level(root))))


@settings(max_examples=300)
@given(prefix=PREFIXES, home=HOMES, name=NAMES)
def test_a_home_folder_under_any_root_is_found_and_its_name_redacted(prefix, home, name):
    root, level = home
    home = f"/{root}/{level}{name}"
    line = f"        Command line used: iozone -i 0 -t 1 -F {prefix}{home}/iozone_test/file1"
    assert f"a user's home folder ({home!r})" in (privacy.finding(line) or ""), line
    redacted = privacy.redact(line)[0]
    assert redacted == line.replace(home, privacy.REDACTED), (line, redacted)


def test_folders_that_are_no_home_pass():
    for line in ("-F /mnt/homes_bench/f1", "-F /srv/users.db", "-F /opt/u01/app/f", "-F /usr/bin/iozone",
                 "-F /mnt/home-nas/f", "-F /data/homework/f", "-F /mnt/beegfs/iozone_test/file1"):
        assert privacy.finding(line) is None, line


@SETTINGS
@given(home=HOMES.filter(lambda h: h[0] != "home"), name=NAMES)
def test_an_iozone_report_naming_a_home_is_refused_and_redacted(tmp_path_factory, capsys, home, name):
    tmp = tmp_path_factory.mktemp("home")
    text = (SAMPLES / "iozone" / "throughput-mode-beegfs.txt").read_text()
    home = f"/{home[0]}/{home[1]}{name}"
    assert "/mnt/beegfs/iozone_test/file1" in text
    source = tmp / "report.txt"
    source.write_text(text.replace("/mnt/beegfs/iozone_test/file1", f"{home}/iozone_test/file1"))
    assert main(["import", "iozone", str(source), "--filesystem", "beegfs", "--out", str(tmp / "a")]) == 1
    assert "a user's home folder" in capsys.readouterr().err
    assert main(["import", "iozone", str(source), "--filesystem", "beegfs", "--out", str(tmp / "b"), "--redact"]) == 0
    capsys.readouterr()
    assert home not in _kept(tmp / "b") and f"{privacy.REDACTED}/iozone_test/file1" in _kept(tmp / "b")


# uname -a's own line in a session names the host as IOzone's "Machine =" line does (its second
# word, uname's nodename): refused, and --redact replaces it, the release kept.
RELEASES = st.sampled_from(["6.1.0-18-amd64", "5.15.153.1-microsoft-standard-WSL2", "2.6.32.71", "6.8.9-arch1-1"])
UNAME_REST = " #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64 GNU/Linux"


@settings(max_examples=200)
@given(host=HOSTS.filter(lambda h: h not in UNAME_REST and h != "localhost"), release=RELEASES)
def test_uname_s_line_in_a_session_names_the_host(host, release):
    text = f"$ uname -a\nLinux {host} {release}{UNAME_REST}\n"
    assert privacy.raw_finding(text) == f"line 2 looks like a host name ({host!r})", text
    assert privacy.redact(text)[0] == f"$ uname -a\nLinux {privacy.REDACTED} {release}{UNAME_REST}\n"


def test_words_after_linux_that_are_no_uname_line_pass():
    for text in ("Linux kernel 6.1 is out", "Linux users 5 of 7", "Linux zeus 6.1.0 SMP"):
        assert privacy.raw_finding(text) is None, text


# More prompt and session lines (adversary 80, finding 1): each family's default, its names found
# and --redact leaving the rest ({r} where a finding is replaced). Some name the host alone.
SESSION_LINES = {
    "macos bash": ("{h}:{d} {u}{sign} ", "{r}:{d} {r}{sign} "),
    "kali": ("┌──({u}㉿{h})-[{d}]\n└─{sign} ", "┌──({r})-[{d}]\n└─{sign} "),
    "parrot": ("┌─[{u}@{h}]─[{d}]\n└──╼ {sign}", "┌─[{r}]─[{d}]\n└──╼ {sign}"),
    "debian, coloured": ("\x1b[01;32m{u}@{h}\x1b[00m:\x1b[01;34m~/{d}\x1b[00m{sign} ",
                         "\x1b[01;32m{r}\x1b[00m:\x1b[01;34m~/{d}\x1b[00m{sign} "),
    "fedora, its title set": ("\x1b]0;{u}@{h}:~/{d}\x07[{u}@{h} {d}]{sign} ", "\x1b]0;{r}:~/{d}\x07[{r} {d}]{sign} "),
    "ssh": ("{sign} ssh {opts}{u}@{h} ", "{sign} ssh {opts}{r} "),
    "rsync": ("{sign} rsync -a {opts}{u}@{h}:{d} ", "{sign} rsync -a {opts}{r}:{d} "),
    "ssh to a host": ("{sign} ssh {opts}{h} ", "{sign} ssh {opts}{r} "),
    "sudo": ("[sudo] password for {u}: ", "[sudo] {r}: "),
    "sudo, German": ("[sudo] Passwort für {u}: ", "[sudo] {r}: "),
    "zsh": ("{h}% ", "{r}% "),
    "zsh, root": ("{h}# ", "{r}# "),
    "busybox ash": ("{h}:/{d}{sign} ", "{r}:/{d}{sign} "),
    "suse, root": ("{h}:~ # ", "{r}:~ # "),
}
SSH_OPTIONS = st.sampled_from(["", "-p 2222 ", "-i ~/.ssh/id_ed25519 ", "-t ", "-o StrictHostKeyChecking=no "])
PROMPT_HOSTS = HOSTS.filter(lambda h: len(h) > 1)  # a one-letter host's h% is no prompt of ours to find


@settings(max_examples=400)
@given(style=st.sampled_from(sorted(SESSION_LINES)), user=USERS.filter(lambda u: u != "root"), host=PROMPT_HOSTS,
       folder=st.sampled_from(["bench", "mnt/test", "fio runs"]), sign=st.sampled_from("$#"), opts=SSH_OPTIONS)
def test_more_prompts_and_session_lines_name_their_user_and_host(style, user, host, folder, sign, opts):
    written, left = SESSION_LINES[style]
    if style in ("macos bash", "busybox ash", "rsync"):
        folder = folder.replace(" ", "_")  # (a space in the folder is another test's)
    line = written.format(u=user, h=host, d=folder, sign=sign, opts=opts) + COMMAND
    assert privacy.finding(line) and privacy.raw_finding(line), line
    redacted, counts = privacy.redact(line)
    assert redacted == left.format(r=privacy.REDACTED, d=folder, sign=sign, opts=opts) + COMMAND, (line, redacted)
    assert privacy.raw_finding(redacted) is None, redacted


def test_lines_like_these_that_name_no_one_pass():
    for line in ("C# is the language", "50% done", "Done: copied$ 5", "[sudo] password for root: ",
                 "ssh-keygen -t ed25519", "sshd[812]: Server listening on 0.0.0.0 port 22.", "rsync -a /src/ /dst/",
                 "$ sudo dd if=/dev/zero of=/dev/sdb bs=1M", "Filesystem      Size  Used Avail Use% Mounted on", "100%  64.0MiB  12.3MB/s",
                 "step 2: write # of files", "note: see #3 below"):
        assert privacy.finding(line) is None and privacy.raw_finding(line) is None, line


@SETTINGS
@given(style=st.sampled_from(sorted(SESSION_LINES)), user=USERS.filter(lambda u: u != "root"), host=PROMPT_HOSTS)
def test_a_dd_session_after_such_a_line_is_refused_and_redact_keeps_neither_name(tmp_path_factory, capsys, style,
                                                                                 user, host):
    tmp = tmp_path_factory.mktemp("session")
    written, left = SESSION_LINES[style]
    line = written.format(u=user, h=host, d="bench", sign="$", opts="")
    source = tmp / "session.txt"
    source.write_text(line + COMMAND + "\n" + (SAMPLES / "dd" / "dd-9.1-english.txt").read_text())
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp / "a")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{source}: " in err and "line 1 looks like a" in err, err
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp / "b"), "--redact"]) == 0
    capsys.readouterr()
    assert _kept(tmp / "b").startswith(left.format(r=privacy.REDACTED, d="bench", sign="$", opts="") + COMMAND)


# Homes and scratch trees with levels before the user's name (adversary 80, finding 2): the
# levels and the name are found and redacted together, whatever the name; right under /scratch,
# a folder shaped as a login name is a user's, and one shaped as a benchmark's passes, as every
# folder right under /work does (/work/bench).
LOGINS = st.one_of(st.from_regex(r"\A[a-z]{2,8}\Z"), st.from_regex(r"\A[a-z]{2,4}[0-9]{1,5}\Z"),
                   st.from_regex(r"\A[a-z]_?[a-z]{3,8}[0-9]?\Z"))
BENCH_WORDS = ("test", "bench", "tmp", "fio", "iozone", "dd", "data", "run", "perf", "job", "io", "results", "disk")
LOGINS = LOGINS.filter(lambda name: not any(word in name for word in BENCH_WORDS))  # (fiona, maddy: another test's)
PROJECTS = st.from_regex(r"\A[A-Z]{2,4}[0-9]{3,5}\Z")
LEVELS = st.one_of(st.from_regex(r"\A[a-z]\Z"), st.from_regex(r"\A[0-9]{1,6}\Z"), PROJECTS,
                   st.sampled_from(["users", "staff", "students", "grad", "faculty", "people"]))


@st.composite
def _leveled_homes(draw):
    """(what stands before the home, the home through the user's name)."""
    name = draw(NAMES)
    kind = draw(st.sampled_from(["home", "users", "afs", "scratch level", "scratch login"]))
    if kind == "home":
        root = draw(st.sampled_from(["home", "home1", "homes", "nethome"]))
        return draw(PREFIXES | st.just("/storage")), f"/{root}/{draw(LEVELS)}/{name}"
    if kind == "users":
        return draw(PREFIXES), f"/users/{draw(PROJECTS)}/{name}"
    if kind == "afs":
        levels = "/".join(draw(st.lists(st.from_regex(r"\A[a-z]\Z"), min_size=1, max_size=2)))
        return "", f"/afs/{draw(st.sampled_from(['cern.ch', 'ir.stanford.edu', 'andrew.cmu.edu']))}/user/{levels}/{name}"
    tree = draw(st.sampled_from(["scratch", "scratch1", "work", "work2"]))
    if kind == "scratch level":
        level = draw(st.from_regex(r"\A[0-9]{1,6}\Z") | PROJECTS)
        return draw(st.sampled_from(["", "/fs", "/lustre"])), f"/{tree}/{level}/{name}"
    return draw(st.sampled_from(["", "/lustre", "/gpfs", "/global"])), f"/scratch/{draw(LOGINS)}"


@settings(max_examples=400)
@given(home=_leveled_homes())
def test_a_home_or_scratch_folder_after_levels_is_redacted_with_its_user_s_name(home):
    before, home = home
    line = f"        Command line used: iozone -i 0 -t 1 -F {before}{home}/iozone_test/file1"
    assert "a user's home folder" in (privacy.finding(line) or ""), line
    assert privacy.redact(line)[0] == line.replace(before + home, before + privacy.REDACTED), line


@settings(max_examples=300)
@given(tree=st.sampled_from(["/scratch", "/scratch1", "/lustre/scratch", "/work", "/work2", "/mnt/work"]),
       name=st.tuples(st.sampled_from(BENCH_WORDS), st.sampled_from(["-", "_", "."]),
                      st.sampled_from(["1", "test", "ext4", "run2"])).map("".join)
       | st.sampled_from(BENCH_WORDS + ("tmpext4", "benchmark", "iotest", "fio1", "testdir", "bench_xfs_2")),
       any_name=st.from_regex(r"\A[a-z][a-z0-9]{1,12}\Z"))
def test_a_benchmark_s_folder_under_scratch_or_work_passes(tree, name, any_name):
    assert privacy.finding(f"-F {tree}/{name}/file1") is None, name
    assert privacy.finding(f"of=/work/{any_name}/f") is None, any_name  # right under /work: a benchmark's


def test_names_holding_a_short_benchmark_word_are_users_under_scratch():
    for name in ("fiona", "maddy", "bruno", "iolanda", "stout"):
        assert "a user's home folder" in (privacy.finding(f"of=/scratch/{name}/f") or ""), name


@SETTINGS
@given(home=_leveled_homes())
def test_a_dd_session_writing_into_such_a_folder_is_refused_and_redacted(tmp_path_factory, capsys, home):
    tmp = tmp_path_factory.mktemp("leveled")
    before, home = home
    source = tmp / "session.txt"
    source.write_text(f"$ dd if=/dev/zero of={before}{home}/f bs=1M count=64\n"
                      + (SAMPLES / "dd" / "dd-9.1-english.txt").read_text())
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp / "a")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 1 looks like a user's home folder" in err, err
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp / "b"), "--redact"]) == 0
    capsys.readouterr()
    assert _kept(tmp / "b").startswith(f"$ dd if=/dev/zero of={before}{privacy.REDACTED}/f bs=1M")


# uname -a of the BSDs, macOS and illumos (adversary 80, finding 5): no #number after the release,
# but the host is its second word all the same; OpenBSD's kernel configuration, GENERIC.MP, is no host.
UNIX_UNAME = {"FreeBSD": "14.0-RELEASE FreeBSD 14.0-RELEASE #0 releng/14.0-n265380-f9716eee8ab4: Fri Nov 10 05:57:23 UTC 2023",
              "NetBSD": "10.0 NetBSD 10.0 (GENERIC) #0: Thu Mar 28 08:33:33 UTC 2024 amd64",
              "OpenBSD": "7.4 GENERIC.MP#1397 amd64",
              "DragonFly": "6.4-RELEASE DragonFly v6.4.0-RELEASE #0: Wed Dec 28 2022 x86_64",
              "Darwin": "23.1.0 Darwin Kernel Version 23.1.0: Mon Oct  9 21:27:24 PDT 2023; root:xnu-10002.41.9~6/RELEASE_ARM64_T6000 arm64",
              "SunOS": "5.11 omnios-r151048-4b0b1b2a6c i86pc i386 i86pc"}


@settings(max_examples=300)
@given(system=st.sampled_from(sorted(UNIX_UNAME)), host=HOSTS)
def test_uname_s_line_of_other_systems_names_the_host(system, host):
    rest = UNIX_UNAME[system]
    if host in rest or host == "localhost":
        return
    text = f"$ uname -a\n{system} {host} {rest}\n"
    assert privacy.raw_finding(text) == f"line 2 looks like a host name ({host!r})", text
    assert privacy.redact(text)[0] == f"$ uname -a\n{system} {privacy.REDACTED} {rest}\n"


def test_words_after_a_system_s_name_that_are_no_uname_line_pass():
    for text in ("FreeBSD ports 2023Q4 branch", "OpenBSD 7.4 GENERIC.MP#1397 amd64", "Darwin 23.1.0",
                 "Darwin Kernel Version 23.1.0: Mon Oct  9 21:27:24 PDT 2023", "SunOS 5.11 i86pc"):
        assert privacy.raw_finding(text) is None, text
