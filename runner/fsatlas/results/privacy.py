"""Looks for what a published result file, or its raw output, should not hold: host names,
user names, e-mail addresses, personal machine labels, serial numbers, MAC and IP addresses.

Findings are errors (validation.PRIVATE marks them): result files and raw output are
published as they are. A maintainer who checked a finding lists it in
data/privacy-reviewed.txt, or runs `fsatlas validate --allow-private`.
"""
import getpass
import platform
import re
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from itertools import islice

# Internal names no public suffix list holds, but which name machines on every private network.
PRIVATE_TLDS = frozenset("local lan internal corp home intra intranet localdomain private priv".split())
# Endings of file names that are also top-level domains (.sh, .py, .md…): "run.sh" is a file,
# "build.example.sh" or "alice.sh" written after an @ is not. Two-label names ending in one of
# these are taken for files.
FILE_ENDINGS = frozenset("sh py md pl rs so zip mov cc ps ml in am pm rb cs ts mk hs as ac ad dat "
                         "bin bz tar tgz json ini cfg conf log txt csv yml yaml toml xml html htm gz xz "
                         "img iso raw out job jobs fio ko c h o a d".split())

# A user's and a host's name as a shell prompt writes them (a host holds a letter: fio@3.35 is a version).
_USER_NAME = r"[A-Za-z_][A-Za-z0-9_.-]*"
_USER = r"(?<![\w.@-])" + _USER_NAME
_HOST = r"(?=[A-Za-z0-9.-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*"
_PROMPT_HOST = r"(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-]{1,62}"  # one label (\h, %m) of two characters or more
# A level a site puts before a user's name in a home: an index's letter, a group's number, a
# project's code in capitals and digits, or a group's word.
_LEVEL = r"(?:[a-z]|\d+|[A-Z]+\d+|users|staff|students?|grads?|ugrads?|undergrads?|faculty|people|guests?|research|members|employees)/"
# A folder right under /scratch is a user's where it is shaped as a login name (lowercase letters,
# digits, underscores: alice, abc123, a_smith), not as a benchmark's folder: one holding a dash
# or a dot (fio-test, run.1) or a word such folders are named with (bench, test, tmp), the
# shortest only as a part between underscores or digits (fio_1, dd2: fiona and maddy are names).
# (A folder wrongly taken for a user's, fioext4, is refused, and --redact removes its name.)
_SCRATCH_USER = (r"(?=[a-z][a-z0-9_]{1,31}(?![A-Za-z0-9_.-]))"
                 r"(?![a-z0-9_]*(?:test|bench|tmp|temp|data|perf|iozone|bonnie|result|scratch|work|disk|nvme|ssd|hdd"
                 r"|mnt|job|share|public|project|local|file|mount|stripe|lustre|beegfs|gpfs))"
                 r"(?![a-z0-9_]*?(?<![a-z])(?:fio|dd|io|run|out)s?(?![a-z]))")
# A pattern's groups, where it has any, are what it finds (the words around them only place it).
PATTERNS = [
    # (IEEE 802's spellings: colons, dashes (Windows), or three dotted groups of four (Cisco))
    ("a MAC address", re.compile(r"(?<![0-9a-f:-])[0-9a-f]{2}(?::[0-9a-f]{2}){5}(?![0-9a-f:-])"
                                 r"|(?<![0-9a-f:-])[0-9a-f]{2}(?:-[0-9a-f]{2}){5}(?![0-9a-f:-])"
                                 r"|(?<![0-9a-f.])[0-9a-f]{4}(?:\.[0-9a-f]{4}){2}(?![0-9a-f.])", re.I)),
    # (loopback and the unspecified address name no machine: fio's client/server output has them;
    # zero-padded octets, 192.168.001.010, are read as addresses by inet_aton's callers; a dot
    # after it ends a sentence or starts a file's ending, "to 203.0.113.7.", "192.168.17.4.tar":
    # only a fifth number, 1.2.3.4.5, makes it no quad)
    ("an IPv4 address", re.compile(r"(?<![\d.])(?!127\.|0\.0\.0\.0(?![\d.]))(?:(?:25[0-5]|2[0-4]\d|[01]?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d?\d)(?!\d|\.\d)")),
    # IPv6 (RFC 4291 2.2): eight groups, or fewer around one "::"; three numbers joined by colons
    # (a Phoronix Test Suite RawString, 355:358:355) are no address
    ("an IPv6 address", re.compile(r"\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?![0-9a-f:])"
                                   r"|\b(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,5})?(?![0-9a-f:])", re.I)),
    # (starts where a run of its characters starts: tried at every place in a run, it read the run
    # to its end each time, a time quadratic in a line's length)
    ("an e-mail address", re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")),
    # (/root is no person's: IOzone prints "Command line used: /root/iozone" wherever root ran it)
    # (a name ends at markup too: /home/bob]]> is bob's, the CDATA's end its own; /media/<user>/ and
    # /run/media/<user>/ are where udisks mounts a user's disks)
    # The rule for a value that names a person or a machine (a home folder's name here, a tool's
    # host-name field in tool_host_names): it is found and redacted whole, whatever it holds:
    # a folder's name runs to the next separator of folders, a quote, markup or the line's end,
    # spaces and punctuation included ("/Users/Bob Smith/fio" kept "Smith" when a space ended it).
    # Homes are /home, /home1, /homes (a Synology's or QNAP's /volume1/homes), /nethome, /users,
    # AFS's /afs/<cell>/user, /Users (macOS), /u. Where a site puts levels before the name (up to
    # two: _LEVEL), the name is the folder after them, and the levels go with it (--redact kept
    # /home/users/alice's alice): a group's number (TACC's /home1/05678/alice), an index's letter
    # (NERSC's /global/homes/a/alice, /afs/cern.ch/user/a/alice), a project's code (OSC's
    # /users/PAS1234/alice) or a group's word (/home/staff/alice).
    # Scratch trees too: a user's folder after a number or project level (TACC's
    # /scratch/05678/alice, /work/05678/alice, OSC's /fs/scratch/PAS1234/alice), and right under
    # /scratch a folder shaped as a user's name (_SCRATCH_USER). Right under /work a folder is a
    # benchmark's (/work/bench), never taken for a user's.
    ("a user's home folder", re.compile(r"/(?:(?:home\d{0,2}|homes|nethome|users|afs/[^/\s\"<>]+/(?:users?|usr|home))/(?:" + _LEVEL + "){0,2}"
                                        r"|(?:scratch|work)\d{0,2}/(?:\d+|[A-Z]+\d+|users)/|scratch\d{0,2}/" + _SCRATCH_USER +
                                        r"|Users/|u/|(?:run/)?media/)[^/\r\n\"<>\[\]&]+|[A-Za-z]:\\\\?Users\\\\?[^\\\r\n\"<>\[\]&]+"
                                        r"|~[a-z_][a-z0-9_-]*/")),
    # a host name after its label (hostname: zeus, Host=zeus), any spelling
    ("a host name", re.compile(r"\b(?:host(?:name)?|nodename)\s*[:=]\s*[\"']?(?!localhost\b)[A-Za-z][A-Za-z0-9-]*", re.I)),
    # A shell prompt's user and host, taken together (--redact leaves the folder and the sign): a
    # user@host (the host holds a letter: fio@3.35 is a version) followed by a colon and a folder
    # (Debian's alice@zeus:~$, bob@build:/srv#), or by a space and, on its line, a prompt's sign
    # standing alone (Red Hat's and Arch's [alice@zeus ~]$, macOS zsh's alice@Alices-MBP ~ %,
    # Gentoo's alice@zeus ~ $, fish's alice@zeus ~>), or by Git Bash's MSYSTEM (Bob@DESKTOP-7 MINGW64 ~).
    # Parrot's ┌─[alice@parrot]─[~] (a bracket and a box's line after the host) too.
    ("a user name", re.compile(_USER + "@" + _HOST + r"(?=:[~/]|[ \t][^\r\n]{0,60}?[$#%>](?!\S)|[ \t](?:MINGW|MSYS|UCRT|CLANG)[A-Z0-9]*\b"
                               r"|\][─━-]*\[)")),
    # Kali's ┌──(alice㉿kali)-[~]: ㉿ stands for the @ and for nothing else.
    ("a user name", re.compile(_USER + "㉿" + _HOST)),
    # The user@host an ssh, scp or rsync command logs in as, wherever it stands on the line
    # (ssh -p 2222 alice@zeus dd ...), and the host ssh is given alone at a command's place
    # (line start or after a prompt's sign: $ ssh -i key zeus dd ...; an option's value, -o X=no,
    # is never taken back for the host).
    ("a user name", re.compile(r"\b(?:ssh|scp|sftp|rsync|sshfs|mosh|autossh|ssh-copy-id)[ \t][^\r\n]{0,200}?("
                               + _USER + "@" + _HOST + ")")),
    ("a host name", re.compile(r"(?:^|(?<=[$#%>] ))[ \t]*(?:sudo[ \t]+)?(?:ssh|mosh|autossh)(?:[ \t]+-[BbcDEeFIiJLlmOopQRSWw][ \t]*[^\s-]\S*"
                               r"|[ \t]+-\S+)*+[ \t]+(" + _HOST + r")(?![\w.@-])", re.M)),
    # sudo's prompt names the user whose password it asks (sudo(8): %p), in the translation's
    # order (German "Passwort für alice", Chinese "alice 的密码"): its words up to the colon are
    # one finding; root's is no person's.
    ("a user name", re.compile(r"\[sudo\][ \t]+(?![^\r\n:：]*\broot[ \t]?[:：]|\[redacted\])([^\r\n:：]{1,80}?)[ \t]?[:：]")),
    # Prompts that put the host first, at a line's start: macOS bash's \h:\W \u$ (zeus:~ alice$,
    # both names found), busybox ash's and SUSE root's \h:\w# (zeus:~#, zeus:/mnt $, zeus:~ #) and
    # zsh's %m%# (zeus%, zeus#).
    ("a user name", re.compile(r"^[ \t]*(" + _PROMPT_HOST + r"):[^\s:$#][^\r\n:$#]{0,60}?[ \t](" + _USER_NAME
                               + r")[$#](?!\S)", re.M)),
    ("a host name", re.compile(r"^[ \t]*(" + _PROMPT_HOST + r")(?::[~/][^\r\n$#]{0,80}?[$#]|[%#])(?!\S)", re.M)),
    ("a user name", re.compile(r"\b(?:user(?:name)?|login|owner|uid)\s*[:=]\s*[\"']?(?!root\b|0\b)[a-z_][a-z0-9_.-]*", re.I)),
    # (the label and the serial after it: "Serial Number: 1234567890", serial_no=..., SerialNumber=...)
    ("a serial number", re.compile(r"\b(?:serial(?:[\s_-]*(?:number|num|no)\b\.?)?|s/n|sn)[\s:=#]+[A-Z0-9-]{4,}", re.I)),
    # A label such as alice-laptop or bobs_macbook_pro names a person's own machine (a name of
    # letters before the word: a temporary folder's "30092-pc_x1" is no one's).
    ("a personal machine name", re.compile(
        r"(?<![A-Za-z0-9])(?=[A-Za-z0-9]*[A-Za-z]{2})[A-Za-z0-9]+(?:'s)?[-_](?:laptop|desktop|notebook|macbook|thinkpad|"
        r"workstation|imac|pc|nuc)(?![A-Za-z0-9])|(?<![A-Za-z0-9])(?:laptop|desktop|notebook|macbook|thinkpad|workstation|imac)"
        r"[-_][A-Za-z0-9]+", re.I)),
    # A disk's serial without its label: 10-20 capitals and digits, at least four digits and three
    # letters (Samsung S4EWNX0N123456A, WD WCC4N7PXJ2E5); where a hardware model is written
    # (_names_a_model: a model field, a PTS Hardware part) only in a serial's own shape
    # (_serial_in_model: KINGSTON SA400S37240G, Samsung M378A2K43DB1 are models).
    ("a serial number", re.compile(r"(?<![A-Za-z0-9])(?=(?:[A-Z]*[0-9]){4})(?=(?:[0-9]*[A-Z]){3})[A-Z0-9]{10,20}(?![A-Za-z0-9])")),
]
SERIAL_UNLABELED = len(PATTERNS) - 1
SERIAL_LABELED = next(i for i, (what, _) in enumerate(PATTERNS) if what == "a serial number")
IPV4 = next(i for i, (what, _) in enumerate(PATTERNS) if what == "an IPv4 address")

# A dotted quad is a version number, not an IPv4 address, only where a software line says so
# (_version_number): PTS's <Software> line prints "Display Server: X Server 1.21.1.11" and
# "OpenGL: 4.6 Mesa 24.0.5.1", and these must import. Anything else is an address: a word before
# it proves nothing ("eth0 192.168.1.5", "zeus 10.0.0.1", "NFS-Server 10.0.0.1" are what ip,
# /etc/hosts and mount print), so the rule is positive, never "not an address word". A quad is
# a version only where
#  1. it is the version token right after a known product's name (KNOWN_PRODUCTS: the software
#     PTS and system reports name with a version, one space between: Mesa 24.0.5.1, X Server
#     1.21.1.11), or the value right after a PTS software field naming software (VERSION_FIELDS:
#     "Kernel: 1.2.3.4", "OpenGL: 4.6.0.1");
#     Or it is a version by its own words (_VERSION_WORDS): right after a v ("v1.2.3.4") or
#     rel- (SeaBIOS's "rel-1.16.2"), after the word version, ver, rev, revision, release, BIOS,
#     firmware or fw ("BIOS Version: 1.2.3.4", "Firmware 1.2.3.4"), or right before the word
#     BIOS or firmware ("(1.12.1.0 BIOS)", dmidecode's and PTS's motherboard line), or as the
#     content of an element named for a version (PTS's <AppVersion>3.29.1.2</AppVersion>, a
#     test's own version: ClickHouse 22.12.3.5; <TestClientVersion>);
#     Or it is a result's field that holds a version (place VERSION, place_of: /tool/pts,
#     a cell's imported_runs tool, any *_version);
#     Or it is a kernel's release: in uname's place, after the system's and node's names and
#     before the build's #number (`uname -a`'s "Linux zeus 2.6.32.71 #1 SMP", IOzone's "Machine ="
#     line), or anywhere with WSL2's suffix, as every WSL2 kernel has four parts
#     ("5.15.153.1-microsoft-standard-WSL2" after `uname -r`); any other word after a dash is no
#     release's ("nfs-203.0.113.7-run.txt");
#  2. and its value is no address by itself: a private or special-use range (10/8, 172.16/12,
#     192.168/16, 169.254/16, 100.64/10: what a LAN's machines have) is an address whatever
#     stands before it, as no product the list names has had such a four-part version (Mesa's
#     are three parts; X Server's 1.x); a port (:22) or a prefix length (/24) after it too.
KNOWN_PRODUCTS = ("X Server", "Xorg Server", "X.Org Server", "xorg-server", "Xwayland", "Mesa", "modesetting",
                  "GNOME Shell", "KDE Plasma", "KDE Frameworks", "Qt", "GCC", "Clang", "LLVM", "NVIDIA", "AMDGPU",
                  "Wayland", "Weston", "Vulkan", "OpenCL", "OpenGL", "Python", "OpenJDK", "Java", "glibc", "systemd")
VERSION_FIELDS = frozenset("""kernel os desktop compiler opengl opencl vulkan python java microcode bios firmware
    version release build revision""".split()) | {"display server", "display driver"}
_PRODUCT_BEFORE = re.compile(r"(?:^|(?<=[\s(\[,;\"'>]))(?:" + "|".join(map(re.escape, KNOWN_PRODUCTS)) + ") $", re.I)
_FIELD_BEFORE = re.compile(r"(?:^|(?<=[\s(\[,;\"'>]))([A-Za-z][A-Za-z /-]{0,40}): ?$")
VERSION_WORDS = ("version", "ver", "rev", "revision", "release", "bios", "firmware", "fw")
_VERSION_BEFORE = re.compile(r"(?:\b(?:" + "|".join(VERSION_WORDS) + r")\.?[ \t]*[:=]?[ \t]*|(?<![A-Za-z])v|\brel-"
                             r"|<(?:[\w.-]+:)?\w*version(?:\s[^<>]*)?>\s*)$", re.I)
_VERSION_AFTER = re.compile(r"[ \t]?(?:bios|firmware)\b|-microsoft-standard\b", re.I)
# the systems uname names (uname -s), as IOzone's "Machine = " line and `uname -a` begin
UNAME_SYSTEMS = r"Linux|[A-Za-z]*BSD|DragonFly|Darwin|SunOS|AIX|HP-UX|IRIX\w*|CYGWIN\S*|MINGW\S*|MSYS\S*|GNU\S*|Haiku|QNX"
_UNAME_BEFORE = re.compile(r"^[ \t]*(?:Machine = )?(?:" + UNAME_SYSTEMS + r")[ \t]+[^ \t\r\n]+[ \t]+$", re.M)
_UNAME_AFTER = re.compile(r"\S*[ \t]+#\d")
_PRIVATE_RANGES = ((10, 0, 8), (172, 16, 12), (192, 168, 16), (169, 254, 16), (100, 64, 10))


# The places of a result a screen knows by name (place_of, from a field's JSON Pointer): a field
# naming a hardware model (MODEL: device_model, cpu_model, any *_model) and one holding a
# software or tool version (VERSION). What the screen looks for everywhere, it looks for there
# too; only a model number's and a version's shapes pass: a serial-shaped word of a model is a
# serial only in a serial's own shape (_serial_in_model), a dotted quad in a version field is
# a version unless it is a LAN's address or has a port (_version_number).
MODEL, VERSION = "model", "version"
_MODEL_PLACE = re.compile(r"/(?:[A-Za-z0-9]+_)*model$")
_VERSION_PLACE = re.compile(r"/(?:[A-Za-z0-9]+_)*version$|^/tool/(?!imported_from$)[^/]+$|/imported_runs/\d+/tool$")


def place_of(path: str) -> str:
    """MODEL, VERSION or "" (any other field) for a result field's JSON Pointer."""
    return MODEL if _MODEL_PLACE.search(path) else VERSION if _VERSION_PLACE.search(path) else ""


# The same places in a text: a part of a Phoronix Test Suite Hardware line naming a device
# ("Memory: 2 x 16384 MB DDR4-3200MT/s Samsung M378A2K43DB1-CTD", "Disk: 500GB Western Digital
# WDS500G2B0A-00SM50"), found by its label, from the line's (or element's) start or the comma
# before it to the word; a comma inside parentheses is the part's own ("Motherboard: QEMU
# Standard PC (i440FX + PIIX, 1996)"). Such a part holds what any other text does (a label
# "Serial Number:", an address, an e-mail address are found in it); only its model numbers pass.
HARDWARE_PARTS = ("Processor", "Motherboard", "Chipset", "Memory", "Disk", "Graphics", "Audio", "Monitor", "Network")
_HARDWARE_PART = re.compile(r"(?:^|[,>\n\[])[ \t]*(?:" + "|".join(HARDWARE_PARTS) + r")[ \t]*:"
                            r"(?:[^,()<>\n]|\([^()<>\n]*\))*(?:\([^()<>\n]*)?$", re.I)


def _names_a_model(text: str, start: int, place: str = "") -> bool:
    """Whether the word at text[start:] stands where a hardware model is written: a MODEL field,
    or a part of a PTS Hardware line (the rule above)."""
    return place == MODEL or _HARDWARE_PART.search(text, max(0, start - 300), start) is not None


def _in_private_range(quad: str) -> bool:
    a, b = (int(octet) for octet in quad.split(".")[:2])
    value = a << 8 | b
    return any(value >> (16 - bits) == (first << 8 | second) >> (16 - bits) for first, second, bits in _PRIVATE_RANGES)


def _version_number(text: str, start: int, end: int, place: str = "") -> bool:
    """Whether the dotted quad text[start:end] is a version number by its context (the rule
    above), or by its place: a field that holds a version (place VERSION, place_of)."""
    after = text[end:end + 2]
    if (after[:1] in (":", "/") and after[1:2].isdigit()) or _in_private_range(text[start:end]):
        return False  # 1.2.3.4:22, 10.0.0.0/8, 192.168.1.20
    if place == VERSION:
        return True
    before = text[max(0, start - 60):start]
    if _PRODUCT_BEFORE.search(before) or _VERSION_BEFORE.search(before) or _VERSION_AFTER.match(text, end):
        return True
    if _UNAME_AFTER.match(text, end) and _UNAME_BEFORE.search(text, max(0, start - 300), start):
        return True  # a kernel's release where uname writes it (pos and endpos: the line's start is the text's)
    field = _FIELD_BEFORE.search(before)
    return bool(field) and field.group(1).strip().lower() in VERSION_FIELDS


# A name with dots whose last label may be a top-level domain; whether it is one, the public
# suffix list decides (_host_names).
DOTTED = re.compile(r"(?<![A-Za-z0-9.-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+([A-Za-z]{2,24})(?![A-Za-z0-9-])")

# One search per string instead of one per pattern; where several match, the leftmost is named.
ANY = re.compile("|".join(f"(?P<p{i}>{f'(?i:{p.pattern})' if p.flags & re.I else p.pattern})"
                          for i, (_, p) in enumerate(PATTERNS)))
# What every match of a pattern above holds: a colon; digit, dot, digit; an @; a home folder (or
# C:\Users, ~name/); a host label; a user label; a serial number's label; a MAC's dashed or
# dotted groups; a personal machine word (all these in any case); four digits among capitals. A
# string holding none is passed over (tests/test_fuzz.py checks that whatever a pattern matches
# holds one).
_NEEDED_ALTERNATIVES = (":", r"\d\.\d", "@", "㉿", "ssh|mosh", r"\[sudo\]", r"[a-z0-9-][%#]", r"/(?:(?:net)?home(?:s|\d{1,2})?|users|u|media|afs|(?:scratch|work)\d{0,2})/", "host|nodename", "users", "~",
                        "(?:user|login|owner|uid)", r"(?:serial|s/n|sn[\s:=#])", r"[0-9a-f]{2}-[0-9a-f]{2}-",
                        r"[0-9a-f]{4}\.[0-9a-f]{4}", "laptop|desktop|notebook|macbook|thinkpad|workstation|imac|pc|nuc")
_NEEDED = "|".join(_NEEDED_ALTERNATIVES)
_NEEDED_CAPS = r"[A-Z0-9]{10}"
NEEDS = re.compile(f"{_NEEDED}|(?-i:{_NEEDED_CAPS})", re.I)
# The same for ASCII text, lowercased, as re tries NEEDS's case-blind alternatives one by one at
# every position: on a text with nothing to find it is the faster (2,000 characters of words:
# 53 µs against 199), on a quick result's 426 distinct strings, most of which hold a candidate
# at once, a little slower (1.9 µs a string against 1.3). Beyond ASCII, lowercasing is not what
# re's IGNORECASE does (U+0130 becomes two characters).
_NEEDED_LOWER, _CAPS = re.compile(_NEEDED), re.compile(_NEEDED_CAPS)
# The alternatives that may match a slash; what any other matches lies between two slashes.
_ACROSS_SLASHES = re.compile("|".join(a for a in _NEEDED_ALTERNATIVES if "/" in a))


def needs_a_look(text: str) -> bool:
    """Whether text holds what every match of PATTERNS holds (NEEDS, sooner). ASCII text with
    slashes is looked at part by part, each part once per process (_ascii_needs_a_look): a
    result's 210 raw references are new (they hold its id) but share every other part with
    those of every other result: 0.8 µs a reference, where the whole text took 2.0."""
    if not text.isascii():
        return bool(NEEDS.search(text))
    if "/" in text:
        return bool(_ACROSS_SLASHES.search(text.lower())) or any(map(_ascii_needs_a_look, text.split("/")))
    return _ascii_needs_a_look.__wrapped__(text)  # finding() remembers the whole text already


@lru_cache(maxsize=4096)
def _ascii_needs_a_look(text: str) -> bool:
    return bool(_NEEDED_LOWER.search(text.lower()) or _CAPS.search(text))


@lru_cache(maxsize=1)
def _suffixes():
    from publicsuffixlist import PublicSuffixList  # the list it ships (ICANN's top-level domains)
    return PublicSuffixList(only_icann=True, accept_unknown=False)


@lru_cache(maxsize=4096)
def _top_level(label: str) -> bool:
    """Whether label is a top-level domain; remembered, as the list's IDNA encoding of each
    name it is asked about was most of the cost of a result file's privacy check."""
    return _suffixes().is_public(label)


def strings_in(value, path="", keys=True):
    """(JSON Pointer, text) of every string in value, its keys too unless keys=False (a tool's
    report: its keys are the tool's own); numbers (most of a result file: its samples) are
    passed over without a generator each."""
    if isinstance(value, str):
        yield path, value
        return
    # A stack of the containers being read, not recursion: orjson reads a raw report nested up to
    # 1,024 levels, past Python's recursion limit (a RecursionError traceback from validate).
    stack = [(path, _items(value))]
    while stack:
        path, items = stack[-1]
        for key, item in items:
            if keys and isinstance(key, str):
                yield f"{path}/{key}", key
            if isinstance(item, str):
                yield f"{path}/{key}", item
            elif isinstance(item, (dict, list)):
                stack.append((f"{path}/{key}", _items(item)))
                break
        else:
            stack.pop()


def _items(value):
    return iter(value.items()) if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else iter(())


@lru_cache(maxsize=1)
def _mine():
    """This machine's host and user names, as a pattern (None when there are none worth looking
    for); once per process: a quick result's raw reports hold 30,000 strings."""
    mine = {x for x in (platform.node(), platform.node().split(".")[0], _user())
            if x and len(x) > 2 and x not in ("root", "localhost")}
    return re.compile("|".join(rf"\b{re.escape(name)}\b" for name in sorted(mine))) if mine else None


@lru_cache(maxsize=4096)
def finding(text: str, place: str = "") -> str | None:
    """What text holds that looks private, in words (every finding, up to MAX_LISTED), or None;
    place: the kind of field it is (place_of), where a model number or a version passes.
    The text is folded first (fold: NFKC, invisible characters out: /h\u200bome/alice, ／home／alice).
    Remembered per text: a quick result's 7,355 strings (keys included) are 426 different ones."""
    text = _without_terminal(_latin(fold(text)))[0]
    text = _TIMES.sub("", text) if ":" in text else text  # 20:33:01 is a time of day, not IPv6
    serials, models, headers = table_cells(text)
    found = [f"a serial number ({text[start:end]!r})" for start, end in serials]
    match = needs_a_look(text) and ANY.search(text)
    while match and len(found) < MAX_LISTED:
        kind = int(match.lastgroup[1:])
        if not _passes(text, kind, match, MODEL if _within(match.start(), models) else place) \
                and not (kind == SERIAL_LABELED and (_within(match.start(), headers) or _within(match.end() - 1, headers))) \
                and not _within(match.start(), serials):
            found.append(f"{PATTERNS[kind][0]} ({match.group(0)!r})")
        match = ANY.search(text, max(match.end(), match.start() + 1))
    found += [f"a serial number ({text[start:end]!r})" for start, end in by_id_serials(text)]
    if "." in text:
        found += [f"a host name ({host!r})" for part in text.split("/") if "." in part for host in _host_names(part)]
    names = _mine()
    if names and names.search(text):
        found.append("this machine's host or user name")
    return "looks like " + ", and ".join(found[:MAX_LISTED]) if found else None


def _passes(text: str, kind: int, match, place: str = "") -> bool:
    """Whether a match of PATTERNS[kind] is no finding by its place and shape: a version's dotted
    quad (_version_number), a model number where a model is written (_names_a_model)."""
    if kind == IPV4:
        return _version_number(text, match.start(), match.end(), place)
    if kind != SERIAL_UNLABELED:
        return False
    if _IN_BY_ID.search(text, max(0, match.start() - 300), match.start()):
        return True  # a by-id name's model, or its serial, which by_id_serials finds whatever its shape
    return _names_a_model(text, match.start(), place) and not _serial_in_model(text, match)


# A disk's name in /dev/disk/by-id, as udev's 60-persistent-storage.rules makes it: <bus>-<model>_<serial>,
# the serial after the last underscore (ata-ST4000DM004-2CV104_ZFN0ABCD, nvme-WDC_WDS500G2B0C-00PXH0_20173R801234,
# usb-SanDisk_Cruzer_Blade_4C530001231122114563-0:0), a namespace's _<n> after an NVMe serial
# (newer udev), -part<n> after a partition's; or the disk's own id alone (wwn-0x5000c500a1b2c3d4,
# nvme-eui.0025388b91b1a2c3, scsi-35000c500a1b2c3d4, virtio-<serial>). The serial is one whatever
# its shape (SanDisk's are digits: 162483441234, Seagate's 8 characters: ZFN0ABCD); the model's
# words before it are the model's, however serial-like (WDS500G2B0C).
_BY_ID_BUS = r"by-id/(ata|nvme|scsi|usb|mmc|wwn|virtio|ieee1394|memstick|cciss)-"
_BY_ID_CHAR = r"[^\s/\\\"'<>,;:()\[\]]"  # fio separates its files by colons: a usb name's -0:0 is read on its own
_BY_ID = re.compile(_BY_ID_BUS + f"({_BY_ID_CHAR}{{1,200}}?)" + r"(?:-\d+:\d+)?(?:-part\d+)?" + f"(?!{_BY_ID_CHAR})")
_IN_BY_ID = re.compile(_BY_ID_BUS + _BY_ID_CHAR + "*$")


# A table a tool prints under a header line, as `lsblk -o NAME,MODEL,SERIAL`, `nvme list` (its
# columns underlined by dashes) or `wmic diskdrive get Model,SerialNumber` print it: a column headed
# SERIAL (SN, Serial Number, SerialNumber) holds serials whatever their shape or length (Seagate's
# ZFN0ABCD), one headed MODEL (or Product) models whatever theirs (ST4000DM004-2CV104). A header
# is a line of two words or more, each starting with a capital, one a serial's; its rows are the
# lines after it (after its dashes) while they fit it, up to a blank line. A row fits where each
# column's place starts a word or a blank (the tools align their columns to the left), and a row
# whose columns are not aligned (spaces squeezed when pasted) fits where it has one word a column
# and its serial holds a digit (a dd line after the table, "64+0 records in", is no row).
_TABLE_HEADER = re.compile(r"^[ \t]*(?=[A-Z])[^\r\n]*?(?<![^ \t\n])(?:SERIAL|SN|Serial(?: Number|Number)?)(?![^ \t\r\n])[^\r\n]*", re.M)
_SERIAL_HEADS = frozenset(["SERIAL", "SN", "SERIAL_NUMBER", "SERIALNUMBER"])
_MODEL_HEADS = frozenset(["MODEL", "PRODUCT"])
_DASHES = re.compile(r"[ \t]*-+(?:[ \t]+-+)*[ \t]*\r?")


def table_cells(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]:
    """(start, end) of each serial and of each model in a table of text (the rule above), and of
    each table's header line."""
    serials, models, headers = [], [], []
    for head in _TABLE_HEADER.finditer(text) if "SN" in text or "SERIAL" in text or "Serial" in text else ():
        line = head.group(0).replace("Serial Number", "Serial_Number").rstrip("\r")
        words = [(m.start(), m.end()) for m in re.finditer(r"\S+", line)]
        if len(words) < 2 or not all(line[start].isupper() for start, _ in words):
            continue
        end = head.end() + 1
        rest = text.find("\n", end)
        dashes = _DASHES.fullmatch(text, end, rest if rest >= 0 else len(text))
        if dashes:  # nvme list: the dashes mark each column's place, its name above them
            words = [m.span() for m in re.finditer(r"-+", text[end:dashes.end()])]
            end = dashes.end() + 1
        names = [line[start:stop].strip().upper() for start, stop in words]
        places = [start for start, _ in words]
        if not _SERIAL_HEADS.intersection(names):
            continue
        headers.append(head.span())
        while end < len(text):
            stop = text.find("\n", end)
            stop = len(text) if stop < 0 else stop
            row = text[end:stop].rstrip("\r")
            cells = _row_cells(row, places, [i for i, name in enumerate(names) if name in _SERIAL_HEADS],
                               [i for i, name in enumerate(names) if name in _MODEL_HEADS])
            if cells is None:
                break
            for (start, stop_cell), name in zip(cells, names):
                if start < stop_cell and name in _SERIAL_HEADS and text[end + start:end + stop_cell] != REDACTED:
                    serials.append((end + start, end + stop_cell))
                elif start < stop_cell and name in _MODEL_HEADS:
                    models.append((end + start, end + stop_cell))
            end = stop + 1
    return serials, models, headers


def _row_cells(row: str, places: list[int], serial_columns: list[int], model_columns: list[int]):
    """(start, end) of each column's words in a row under a header whose columns start at places
    (an empty span where the column is blank), or None where the row does not fit (above): the
    places of the columns read are checked (lsblk's SIZE is aligned to the right), and a serial is
    one word holding a digit."""
    words = [m.span() for m in re.finditer(r"\S+", row)]
    if not words:
        return None
    if all(places[i] == 0 or places[i] >= len(row) or row[places[i] - 1] in " \t" for i in serial_columns + model_columns):
        ends = places[1:] + [len(row) + 1]
        cells = [[(s, e) for s, e in words if s < stop and e > start] for start, stop in zip(places, ends)]
        if all(len(cells[i]) == 0 or len(cells[i]) == 1 and _a_serial(row[slice(*cells[i][0])]) for i in serial_columns):
            return [(cell[0][0], cell[-1][1]) if cell else (0, 0) for cell in cells]
    if len(words) == len(places) and all(_a_serial(row[slice(*words[i])]) for i in serial_columns):
        return words
    return None


def _a_serial(word: str) -> bool:
    return word == REDACTED or any(c.isdigit() for c in word)


def _within(position: int, spans: list[tuple[int, int]]) -> bool:
    """Whether position lies in one of spans (in order, none overlapping: table_cells's)."""
    at = bisect_right(spans, (position, len(spans) and spans[-1][1] + 1)) - 1
    return at >= 0 and spans[at][0] <= position < spans[at][1]


def by_id_serials(text: str) -> list[tuple[int, int]]:
    """(start, end) of the serial or id in each /dev/disk/by-id name of text (the rule above)."""
    spans = []
    for match in _BY_ID.finditer(text) if "by-id/" in text else ():
        name = match.group(2)
        if match.group(1) == "nvme" and name.count("_") > 1:
            name = re.sub(r"_\d{1,3}$", "", name)  # the namespace's number
        start = match.start(2) + name.rfind("_") + 1
        if start < match.start(2) + len(name):  # none after the underscore: what --redact left, _[redacted]
            spans.append((start, match.start(2) + len(name)))
    return spans


def _serial_in_model(text: str, match) -> bool:
    """Whether a serial-shaped word of a device's model is its serial after all: a model number
    is short and has few digits in a row (KINGSTON SA400S37240G, CT1000MX500SSD1, Samsung
    M378A2K43DB1, SK hynix HMCG94MEBRA123N), or its long run of digits is a family and capacity
    (HGST HUH721212ALE604, WD WUH721414ALE6L4, Hitachi HDS721010CLA332; adversary of #65, round
    76) or a round capacity (Seagate ST12000NM0008); a serial added to the model has 13 or more
    characters with five digits in a row otherwise, that are no round thousand
    (Samsung's S4EWNX0N123456A), follows WD- (Western Digital's) or an underscore
    (/dev/disk/by-id's model_serial)."""
    word, before = match.group(0), text[:match.start()]
    runs = list(re.finditer(r"\d+", word))
    long = [run for run in runs if len(run.group()) >= 5 and not re.fullmatch(r"[1-9]\d{1,2}000", run.group())]
    # a family and capacity: the word's first digits, at most seven, then a code of two letters
    # (HUH721212ALE604) or of a letter, one digit and a letter (HGST Travelstar HTS721010A9E630:
    # form factor, interface); a serial's run is later, longer, or followed by one letter and more
    # digits (Intel's PHYF8123004Y480BGN, BTWL123456789012, Kingston's 50026B7682D0E6F2: adversary,
    # round 77). Or a capacity, two letters and a product code ending the word (Seagate Nytro's
    # XS3840SE70084: adversary 78).
    family = bool(long) and long == runs[:1] and len(long[0].group()) <= 7 and \
        re.match(r"[A-Z]{2}|[A-Z]\d[A-Z]", word[long[0].end():]) is not None
    family = family or _CAPACITY_CODE.fullmatch(word) is not None
    return (len(word) >= 13 and bool(long) and not family) or before.endswith(("WD-", "_"))


_CAPACITY_CODE = re.compile(r"[A-Z]{2,4}\d{3,5}[A-Z]{2}\d{5}")


# What raw_matches calls each kind it finds: the words a result's redactions name.
REDACTION_KINDS = frozenset([what for what, _ in PATTERNS] + ["a host name", "this machine's host or user name"])
# (not a run of colon-separated hex groups it is part of: 00:11:22 of 00:11:22:33:44:55 is a MAC's)
_TIMES = re.compile(r"(?<![0-9A-Fa-f:])\d{1,2}:\d{2}(?::\d{2})?(?![0-9A-Fa-f]|:[0-9A-Fa-f])")


def findings(data, keys: bool = True) -> list[tuple[str, str]]:
    """(JSON Pointer, what it looks like) for each suspicious string of a result file."""
    out = []
    for path, text in strings_in(data, keys=keys):
        if text in REDACTION_KINDS and path.startswith("/redactions/") and path.endswith("/what"):
            continue  # the name of a kind --redact replaced ("a serial number"), not one
        what = finding(text, place_of(path))
        if what:
            out.append((path, f"{what}; result files are published"))
    return out


def document_findings(strings, data) -> list[tuple[str, str]]:
    """findings(data), found sooner given the document's distinct strings, keys included
    (resultfile.screened): the walk, which builds a JSON Pointer for each of a quick result's
    7,000 strings (6 ms), runs only when one of its 430 distinct strings looks private (as in
    almost no file)."""
    return findings(data) if any(map(finding, strings)) else []


_UNREAD = object()


def json_strings(data) -> tuple[set, set]:
    """(the distinct strings among a JSON document's values, the distinct keys): one walk,
    without a generator or a JSON Pointer a string as strings_in makes them. A fio report holds
    a few dozen distinct strings among thousands of numbers: a bundle of 100,000 small reports,
    each walked twice by strings_in, took 9.9 s to check, 8.7 s with this."""
    values, keys, todo = set(), set(), [data]
    while todo:
        node = todo.pop()
        if type(node) is dict:
            keys.update(node)
            node = node.values()
        elif type(node) is not list:
            if type(node) is str:
                values.add(node)
            continue
        for item in node:
            kind = type(item)
            if kind is str:
                values.add(item)
            elif kind is dict or kind is list:
                todo.append(item)
    return values, keys


def json_document(text: str):
    """text read as JSON (a fio report), or None where it is no JSON."""
    import orjson
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return None


def raw_finding(text: str, data=_UNREAD, values: set | None = None) -> str | None:
    """Every private-looking thing in a raw file's text, with its place, or None. A JSON report
    (fio's) is searched string by string, passing over its thousands of numbers, and walked
    for the places only when one of its distinct strings looks private; other output (bonnie++,
    IOzone, dd) by raw_matches, in one pass a pattern, and a PTS file's <User> (user_findings). data: the text as json_document read it,
    and values its distinct strings (json_strings), where the caller has them already."""
    if data is _UNREAD:
        data = json_document(text)
    if isinstance(data, (dict, list)):
        values = json_strings(data)[0] if values is None else values
        found = [f"{where} {what.split(';')[0]}" for where, what in findings(data, keys=False)] \
            if any(map(finding, values)) else []
        if "hostname" in text:  # fio's client/server reports: each job's "hostname", whatever its spelling
            found += [f"{where} looks like a host name ({value!r})" for where, value in strings_in(data, keys=False)
                      if where.endswith("/hostname") and value not in NO_HOST and not CLIENT_LABEL.fullmatch(value)]
    else:
        found, line, counted = [], 1, 0
        folded = fold(text)  # raw_matches's places are those of the folded text
        places = raw_matches(folded, MAX_LISTED + 1)
        places += [(start, 0, "a user name in <User>", content[:40]) for start, content in user_findings(folded)]
        for start, _, what, matched in sorted(places):
            line, counted = line + folded.count("\n", counted, start), start
            found.append(f"line {line} looks like {what} ({matched!r})")
    if len(found) > MAX_LISTED:
        found[MAX_LISTED:] = ["and more"]
    return "; ".join(found) or None


MAX_LISTED = 10
# What a scan folds (fold, then _latin), decided so that a spelling a reader or a parser takes for
# the same text is the same text to the patterns:
#  - NFKC, character by character: fullwidth ／ｈｏｍｅ is /home, ① is 1, and the ideographic full
#    stop (。, which NFKC keeps) a dot;
#  - characters that show as nothing and would split a word (/h\u200bome) are taken out:
#    INVISIBLE, every format character (Unicode category Cf, the tag characters U+E0000-E007F
#    among them), the variation selectors (U+FE00-FE0F, U+E0100-E01EF) and the blank U+2800;
#  - a character written as an XML/HTML reference (&#47; &#x2F;), percent-encoded (%2F) or as a
#    JSON escape (\u002f, a surrogate pair), as an XML or JSON reader or a URL's user reads it,
#    where it folds to what the patterns look for or to nothing (ESCAPED: a letter, digit, space or one
#    of /@.:_~-=#; never <, &, a backslash or a quote, which would change the markup);
#  - for the patterns only, the Cyrillic and Greek letters that look like Latin ones (_LATIN, a
#    subset of Unicode's confusables, UTS #39): /һome is /home. Mapped one to one, so places
#    stay those of the folded text and what --redact keeps is the text as written.
# Combining accents are kept (/hóme is no home folder a system makes).
INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e"
                                   "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064"
                                   "\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u202e\u2800\u3164\ufeff\uffa0"))
ESCAPED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/@.:_~-=# ")
_ESCAPE = re.compile(r"&#(\d{1,7});|&#[xX]([0-9A-Fa-f]{1,6});|%([0-9A-Fa-f]{2})"
                     r"|(?<!\\)\\u([dD][89abAB][0-9A-Fa-f]{2})\\u([dD][c-fC-F][0-9A-Fa-f]{2})|(?<!\\)\\u([0-9A-Fa-f]{4})")
_LATIN = str.maketrans("аеорсухһіјѕԁԛԝӏАВЕКМНОРСТХІЈЅαονρΑΒΕΖΗΙΚΜΝΟΡΤΧΥ",
                       "aeopcyxhijsdqwlABEKMHOPCTXIJSaovpABEZHIKMNOPTXY")


def _unescaped(match) -> str:
    decimal, hexadecimal, percent, high, low, unit = match.groups()
    if high:  # a JSON surrogate pair (\udb40\udc20: a tag character)
        code = 0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00
    else:
        code = int(decimal) if decimal else int(hexadecimal or percent or unit, 16)
    char = chr(code) if code < 0x110000 and not 0xD800 <= code < 0xE000 else ""
    folded = _folded_char(char) if char and ord(char) > 127 else char
    return char if char and all(c in ESCAPED for c in folded.translate(_LATIN)) else match.group(0)


def fold(text: str) -> str:
    """text as the patterns look at it (the rule above, but _LATIN): references and percent
    escapes of ESCAPED characters decoded, every character NFKC-normalized on its own and the
    invisible ones taken out. Character by character, through one str.translate, so that a long
    text of few distinct characters (dd's progress lines in Chinese) costs one pass; ASCII text
    without &, % or \\u is returned as it is."""
    if ("&#" in text or "%" in text or "\\u" in text) and _ESCAPE.search(text):
        text = _ESCAPE.sub(_unescaped, text)
    if text.isascii():
        return text
    table = {}
    for char in set(text):
        if ord(char) > 127:
            mapped = _folded_char(char)
            if mapped != char:
                table[ord(char)] = mapped
    return text.translate(table) if table else text


def _latin(text: str) -> str:
    """text with _LATIN's look-alike letters as the Latin ones (one to one: places stay)."""
    return text if text.isascii() else text.translate(_LATIN)


@lru_cache(maxsize=65536)
def _folded_char(char: str) -> str:
    code = ord(char)
    if code in INVISIBLE or unicodedata.category(char) == "Cf" or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return ""
    return "." if char in "\u3002\ufe12" else unicodedata.normalize("NFKC", char)  # ideographic full stops: a dot


# What each of PATTERNS needs in the text, lowercased (the last: in the text itself): a pattern
# is run only over a text holding it, each over the whole text once (46 MB of dd's progress
# lines line by line took 20 s; over the whole text a pattern at a time, the gates skip most).
_GATES = [r":|[0-9a-f]{2}-[0-9a-f]{2}-|[0-9a-f]{4}\.[0-9a-f]{4}", r"\d\.\d", ":", "@",
          r"/(?:(?:net)?home(?:s|\d{1,2})?|users|u|media|afs|(?:scratch|work)\d{0,2})/|users\\|~",
          "host|nodename", "@", "㉿", "@", "ssh|mosh", r"\[sudo\]", ":", "[:%#]", "user|login|owner|uid", r"serial|s/n|sn[\s:=#]",
          "laptop|desktop|notebook|macbook|thinkpad|workstation|imac|pc|nuc", None]
_GATE_RES = [re.compile(g) if g and len(g) > 1 else g for g in _GATES]


def _spans(match) -> list[tuple[int, int]]:
    """What a match of PATTERNS finds: its groups that matched, or the whole match."""
    return [match.span(g) for g in range(1, match.re.groups + 1) if match.start(g) >= 0] or [match.span()]


# A terminal's control sequences (colours, a window title's brackets), as `script`, `tmux
# capture-pane -e` or a CI log keep them: taken out before the patterns look (ESC[01;32m before
# alice@zeus hid the prompt's user); a title's own text stays.
_TERMINAL = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][0-9]*;?|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\^_]|[\x01\x02\x07]")


def _without_terminal(text: str) -> tuple[str, list[int], list[int]]:
    """text without _TERMINAL's sequences, and where they were: each one's place in what is left,
    and how many characters were taken out up to and with it (for _placed)."""
    if "\x1b" not in text:  # (a BEL or readline's markers come with escapes; alone, /home/\x07 is a folder's name)
        return text, [], []
    pieces, places, removed, done = [], [], [], 0
    for m in _TERMINAL.finditer(text):
        pieces.append(text[done:m.start()])
        places.append(m.start() - (removed[-1] if removed else 0))
        removed.append((removed[-1] if removed else 0) + m.end() - m.start())
        done = m.end()
    return "".join(pieces) + text[done:], places, removed


def _placed(position: int, places: list[int], removed: list[int]) -> int:
    """A place in _without_terminal's text as one in the text it was given (a sequence at the
    place itself stands before the character there)."""
    before = bisect_right(places, position)
    return position + (removed[before - 1] if before else 0)


def raw_matches(text: str, limit: int | None = None) -> list[tuple[int, int, str, str]]:
    """(start, end, what it looks like, the text matched) of every private-looking thing in a
    tool's text output (with a limit: the first `limit` of each kind), in the order they appear;
    the text folded first (fold: the places are those of the folded text).
    Linear in the text's length: every pattern starts where a run of its characters starts."""
    text = written = fold(text)
    text, places, removed = _without_terminal(_latin(text))  # _latin is one to one: the places stay the written text's
    if ":" in text:  # a time of day is no IPv6 address; blanked, so places stay
        text = _TIMES.sub(lambda m: " " * len(m.group(0)), text)
    lower = text.lower() if text.isascii() else None
    serials, models, headers = table_cells(text)
    out = [(start, end, "a serial number", text[start:end]) for start, end in islice(serials, limit)]
    # (first: where a tool's host field is also shaped as a serial, 0000000AAA, it is named a host)
    out += [(start, end, "a host name", text[start:end]) for start, end in tool_host_names(text)]
    for kind, ((what, pattern), gate) in enumerate(zip(PATTERNS, _GATE_RES)):
        if gate is None:
            passes = bool(_CAPS.search(text))
        elif lower is None:
            passes = True
        else:
            passes = gate in lower if isinstance(gate, str) else bool(gate.search(lower))
        if passes:
            found = pattern.finditer(text)
            if kind in (IPV4, SERIAL_UNLABELED):  # a version, a model number (_passes), a table's model
                found = (m for m in found if not _passes(text, kind, m, MODEL if _within(m.start(), models) else ""))
            elif kind == SERIAL_LABELED and headers:  # a table's header (SN  Model) labels no serial
                found = (m for m in found if not _within(m.start(), headers) and not _within(m.end() - 1, headers))
            out += [(start, end, what, text[start:end]) for m in islice(found, limit) for start, end in _spans(m)]
    if "." in text:
        hosts = ((part.start(), name) for part in _DOTTED_PARTS.finditer(text) for name in _host_names(part.group(0)))
        for after, name in islice(hosts, limit):
            start = text.index(name, after)
            out.append((start, start + len(name), "a host name", name))
    out += [(start, end, "a serial number", text[start:end]) for start, end in islice(by_id_serials(text), limit)]
    names = _mine()
    if names:
        out += [(m.start(), m.end(), "this machine's host or user name", m.group(0))
                for m in islice(names.finditer(text), limit)]
    kept = []
    # One finding a place, the longest of those starting there: the host name inside an e-mail
    # address is that address's, alice-laptop.example.lan one host name, not a machine's name.
    for found in sorted(out, key=lambda f: (f[0], -f[1])):
        if not kept or found[0] >= kept[-1][1]:
            kept.append(found)
    if places:
        kept = [(_placed(start, places, removed), _placed(end - 1, places, removed) + 1, what, _) for start, end, what, _ in kept]
    return [(start, end, what, written[start:end]) for start, end, what, _ in kept]


# Fields a tool's format defines as a host name are one whatever their spelling ("rakku", a
# single label no pattern above would take for a host): bonnie++'s machine name (its -m, by
# default the host name: importers.bonnie.host_names), fio's client/server "hostname" (JSON)
# and hostname= (its normal output). Loopback and what --redact left name no machine.
REDACTED = "[redacted]"  # what a redaction leaves: no pattern matches it, no parser reads it as a figure
NO_HOST = frozenset(["127.0.0.1", "localhost", "::1", "", REDACTED])
# The labels `fsatlas run --clients` writes in place of each client's address in fio's hostname
# fields (run/clients.py: client-1, client-2, ... in the host file's order): names nothing.
CLIENT_LABEL = re.compile(r"client-[1-9][0-9]{0,3}")
_FIO_HOST = re.compile(r'"hostname"\s*:\s*"((?:[^"\\]|\\.)*)"|\bhostname=([^,\s]+)')
# IOzone prints `uname -a` as "Machine = Linux vflare 2.6.34 #1 SMP ...", and a pasted session
# holds uname -a's line itself ("Linux zeus 6.1.0-18-amd64 #1 SMP ..."): its second word is
# uname's nodename, the host's name (uname(1): -n, "network node hostname"; IOzone 3.x's
# "Machine = " line, tests/fixtures/samples/iozone/auto-mode-ramdisk-2010.txt).
# (only after a system's name uname writes, and before a release starting with a digit: a line
# "Machine = build.example.com at 10.0.0.7" written by hand is no uname line; without IOzone's
# "Machine = ", before the build's #number too: "Linux kernel 6.1 is out" is no uname line; the
# BSDs', macOS's and illumos's uname -a has no #number where Linux has it, but a dotted release
# and more words: FreeBSD zeus 14.0-RELEASE FreeBSD..., OpenBSD zeus 7.4 GENERIC.MP#1397 amd64,
# Darwin zeus 23.1.0 Darwin Kernel..., SunOS zeus 5.11 omnios-r151048...)
_UNIX_SYSTEMS = r"[A-Za-z]*BSD|DragonFly|Darwin|SunOS"
_UNAME_HOST = re.compile(r"^[ \t]*(?:Machine = (?:" + UNAME_SYSTEMS + r")[ \t]+([^ \t\r\n]+)(?=[ \t]+\d)"
                         r"|(?:" + UNAME_SYSTEMS + r")[ \t]+([^ \t\r\n]+)(?=[ \t]+\d\S*[ \t]+#\d)"
                         r"|(?:" + _UNIX_SYSTEMS + r")[ \t]+(?=\S*[A-Za-z])([^ \t\r\n]+)(?=[ \t]+\d+\.\d+\S*[ \t]+\S))", re.M)


def tool_host_names(text: str) -> list[tuple[int, int]]:
    """(start, end) of each value of a field a tool's format defines as a host name (above)."""
    spans = []
    if "hostname" in text:
        spans += [m.span(1) if m.group(1) is not None else m.span(2) for m in _FIO_HOST.finditer(text)]
    if "Machine = " in text or " #" in text or any(name in text for name in ("BSD", "DragonFly", "Darwin", "SunOS")):
        spans += [m.span(m.lastindex) for m in _UNAME_HOST.finditer(text)]
    if "," in text:
        from .importers import bonnie
        if bonnie.looks_like(text):
            spans += bonnie.host_names(text)
    return [(start, end) for start, end in spans if text[start:end] not in NO_HOST
            and not CLIENT_LABEL.fullmatch(text[start:end])]


# A piece of text between separators holding a dot (tried only where a piece starts: at every
# place of a long piece it read the piece to its end, a time quadratic in its length).
_DOTTED_PARTS = re.compile(r"(?<![^\s/\"'<>()\[\],;=])[^\s/\"'<>()\[\],;=]*\.[^\s/\"'<>()\[\],;=]*")


# A version as git describe writes it (version, commits since, g and the commit), then where it
# was built: QEMU's SeaBIOS reports rel-1.16.2-0-gea1b7a073390-prebuilt.qemu.org as its version
# (PTS's motherboard line of every QEMU guest). Such a name is a version string, not a machine's
# name, unless its domain is a private network's (PRIVATE_TLDS).
_BUILD_TAG = re.compile(r"(?:rel-|v)?\d+(?:\.\d+)+-\d+-g[0-9a-f]{7,40}-", re.I)


@lru_cache(maxsize=4096)
def _host_names(part: str) -> tuple[str, ...]:
    """The host names in a piece of text: dotted names ending in a top-level domain (the public
    suffix list's) or a private network's (PRIVATE_TLDS); a name of two labels whose ending is
    a file's is taken for a file. Asked part by part between slashes (the parts' names are the
    whole text's, in order: DOTTED's look-arounds take a slash as either end of the text), each
    part once per process: a result's 210 raw references are all new but share their last
    parts (rep-1.json)."""
    found = []
    for match in DOTTED.finditer(part):
        name, tld = match.group(0), match.group(1).lower()
        if not re.search(r"[A-Za-z]", name[:-len(tld)]):
            continue  # 1.5.GiB, 2.80GHz: a number with a unit
        if _BUILD_TAG.match(name) and tld not in PRIVATE_TLDS:
            continue  # a build's version string: SeaBIOS's rel-1.16.2-0-gea1b7a073390-prebuilt.qemu.org
        if re.match(r"#\d", part[match.end():]):
            continue  # a kernel's configuration and its build's number: OpenBSD's uname -v, GENERIC.MP#1397
        if tld in PRIVATE_TLDS or (_top_level(tld) and (name.count(".") > 1 or tld not in FILE_ENDINGS)):
            found.append(name)
    return tuple(found)


# The Phoronix Test Suite records the login name of whoever ran it as <User>: found (and
# replaced) in any spelling an XML reader accepts or a hand could write: <User >, <user>, a
# namespace prefix, attributes, CDATA, character references or a comment inside. Only an empty
# element or the text USER_REDACTED passes; an element never closed runs to the text's end.
# Opening and closing tags are found each in one pass and paired in order (a pattern spanning
# from one to the other, tried at each of a million unclosed <user>, took a time quadratic in
# the text's length).
_USER_OPEN = re.compile(r"<((?:[\w.-]+:)?user)\b([^<>]{0,1000})>", re.I)
_USER_CLOSE = re.compile(r"</(?:[\w.-]+:)?user\s*>", re.I)
USER_REDACTED = "redacted"
MAX_USER_ELEMENTS = 10_000  # a PTS file has one a system; beyond these, the rest are not looked at but refused


def _user_elements(text: str):
    """(start, content start, content end, end, tag name) of each <User> element, in order: each
    search starts where the element before ended, so the text is read once (an opening tag
    inside an element, <User><User>x</User>, is that element's content)."""
    tag = _USER_OPEN.search(text) if "<" in text else None
    while tag is not None:
        if tag.group(2).endswith("/"):  # <User/>
            content_end = end = tag.end()
        else:
            close = _USER_CLOSE.search(text, tag.end())
            content_end, end = (close.start(), close.end()) if close else (len(text), len(text))
        yield tag.start(), tag.end(), content_end, end, tag.group(1)
        tag = _USER_OPEN.search(text, end)


def redact_users(text: str) -> str:
    """text with the content of every <User> element (the first MAX_USER_ELEMENTS) replaced by
    USER_REDACTED."""
    pieces, done = [], 0
    for start, _, _, end, name in islice(_user_elements(text), MAX_USER_ELEMENTS):
        pieces += [text[done:start], f"<{name}>{USER_REDACTED}</{name}>"]
        done = end
    return "".join(pieces) + text[done:] if pieces else text


def user_findings(text: str, limit: int = MAX_LISTED) -> list[tuple[int, str]]:
    """(offset, content) of each <User> element (any spelling) holding anything but USER_REDACTED;
    past MAX_USER_ELEMENTS elements, the next one's offset and a note that there are more."""
    out = []
    for count, (start, inner, inner_end, _, _) in enumerate(_user_elements(text)):
        if count == MAX_USER_ELEMENTS:
            out.append((start, f"more than {MAX_USER_ELEMENTS:,} <User> elements"))
            break
        if text[inner:inner_end].strip() not in ("", USER_REDACTED):
            out.append((start, text[inner:inner_end]))
            if len(out) == limit:
                break
    return out


def redact_markup(text: str) -> tuple[str, dict[str, int]]:
    """redact() applied to the text between an XML document's tags (a PTS result file: its
    <Hardware> and <Software> lines, <Identifier>s and notes), so that no replacement takes a
    tag with it; the tags are left as they are, but each text is read after its tag, as the
    whole file is (raw_finding): <AppVersion>3.29.1.2 is a version. Returns the text and how
    many of each kind."""
    counts: dict[str, int] = {}

    def one(match):
        tag = match.group(3) or ""
        done, found = redact(match.group(2), "<![CDATA[") if match.group(1) else redact(match.group(4), tag + ">")
        for what, n in found.items():
            counts[what] = counts.get(what, 0) + n
        return f"<![CDATA[{done}]]>" if match.group(1) else tag + ">" + done
    # a CDATA section's text is the element's text too (<Hardware>... <![CDATA[/home/bob]]></Hardware>)
    return re.sub(r"(<!\[CDATA\[)(.*?)\]\]>|(<[^<>]{0,200})?>([^<]+)(?=<)", one, fold(text), flags=re.S), counts


def redact(text: str, before: str = "") -> tuple[str, dict[str, int]]:
    """text with every private-looking thing raw_matches finds replaced by REDACTED, and how many
    of each kind were (fsatlas import --redact: the kept raw output, its figures untouched; the
    text comes back folded, as it was scanned: fullwidth digits read the same to every parser).
    before: what stands before the text (its element's tag, redact_markup), read as its place
    (_version_number, _names_a_model) and not replaced (a finding running from it into the text
    is replaced from the text's start)."""
    text = fold(text)
    if before and fold(before + text) == before + text:
        found = [(max(start - len(before), 0), end - len(before), what, matched)
                 for start, end, what, matched in raw_matches(before + text) if end > len(before)]
    else:
        found = raw_matches(text)
    # a host name a tool's field gives (fio's "hostname": "build box 7") is the machine's
    # wherever else it stands ("directory": "/srv/build box 7/d1"): every place of it is replaced
    names = {text[start:end] for start, end in tool_host_names(text)}
    for name in sorted(n for n in names if re.search(r"[A-Za-z]", n)):
        taken = [(start, end) for start, end, _, _ in found]
        for m in re.finditer(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text):
            if not any(start < m.end() and m.start() < end for start, end in taken):
                found.append((m.start(), m.end(), "a host name", name))
    found.sort()
    in_tables = set(table_cells(text)[0])  # a table's serial: its columns kept in their places
    counts: dict[str, int] = {}
    pieces, done = [], 0
    for start, end, what, _ in found:
        pieces += [text[done:start], REDACTED.ljust(end - start) if (start, end) in in_tables else REDACTED]
        done = end
        counts[what] = counts.get(what, 0) + 1
    return "".join(pieces) + text[done:], counts


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""
