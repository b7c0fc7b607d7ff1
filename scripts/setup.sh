#!/usr/bin/env bash
# Installs everything fsatlas needs on a Debian 12 machine; safe to run again (each step
# checks whether it is already done). Needs root for apt; the rest installs into the repo:
#   .venv/            the runner (runner/) and its Python dependencies
#   node_modules/     the pinned JS libraries (package-lock.json), copied to static/vendor/
#   .tools/bin/       htmltest, built from the pinned scripts/tools/go.mod
#   .tools/kernels/   stock kernels for guests (runner/fsatlas/run/kernels.txt)
#   .tools/sbin/      programs of pinned packages outside apt's sources (runner/fsatlas/run/packages.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

# The guest (fsatlas probe --kernel): QEMU, busybox and udev for virtme-ng, and the mkfs of the
# filesystems only a stock kernel has here (HFS+'s, only in Debian's non-free hfsprogs, comes
# pinned from runner/fsatlas/run/packages.txt below); dump, xfsdump and quota for the dump,
# restore and quota probes. gcc and python3-dev compile the runner's hot modules (compiled.py).
APT_PACKAGES=(hugo fio bonnie++ e2fsprogs xfsprogs btrfs-progs ntfs-3g util-linux fdisk kmod procps acl
              qemu-system-x86 busybox-static udev jfsutils reiserfsprogs f2fs-tools nilfs-tools dump xfsdump quota
              iproute2 openssh-server openssh-client
              chromium python3 python3-venv python3-pip python3-dev gcc golang-go nodejs npm git ca-certificates curl)

step() { printf '\n== %s\n' "$*"; }

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  # Go and Node may come from elsewhere on the machine (a newer toolchain); only install if absent.
  case "$pkg" in
    golang-go) command -v go >/dev/null && continue ;;
    nodejs|npm) command -v node >/dev/null && command -v npm >/dev/null && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  step "apt: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then echo "setup: installing Debian packages needs root: sudo $0" >&2; exit 1; fi
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The interpreter: Debian's (/usr/bin/python3), which Debian builds with profile-guided and
# link-time optimization (python3.11's changelog.Debian: "Enable LTO/PGO builds on some
# architectures"), unless PYTHON names another. A build without them (pyenv's default,
# configured without --enable-optimizations, first on this machine's PATH) ran the aggregator's
# checks and derivations of 1,000 quick results on 12.0 s of CPU, Debian's 3.11.2 on 10.0 s.
# A .venv another interpreter made is made again.
PY=${PYTHON:-/usr/bin/python3}
real_executable='import os, sys; print(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))'
if [ -x .venv/bin/python ] && [ "$(.venv/bin/python -c "$real_executable")" != "$("$PY" -c "$real_executable")" ]; then
  step "python virtual environment: made by another interpreter than $PY, made again"
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  step "python virtual environment"
  "$PY" -m venv .venv
fi
stamp=.venv/.fsatlas-installed
want=$(sha256sum runner/pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  step "pip install runner"
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -e "runner[test,guest,compile]"
  echo "$want" > "$stamp"
fi
# The modules a build spends its CPU in, compiled by Cython where their source changed
# (runner/fsatlas/compiled.py); a module that cannot be is imported from its source.
.venv/bin/python -c 'import sys, fsatlas.compiled as c; sys.exit(c.main())'
# Bytecode for the runner (an editable install gets none): with PYTHONDONTWRITEBYTECODE set,
# every fsatlas command would otherwise compile the package again. Stale files are ignored.
.venv/bin/python -m compileall -q runner/fsatlas

want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.fsatlas-installed ] || [ "$(cat node_modules/.fsatlas-installed)" != "$want" ]; then
  step "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > node_modules/.fsatlas-installed
fi
scripts/vendor-js.sh

if [ ! -x .tools/bin/htmltest ]; then
  step "htmltest (scripts/tools/go.mod)"
  mkdir -p .tools/bin
  (cd scripts/tools && GOFLAGS=-mod=mod go build -o ../../.tools/bin/htmltest github.com/wjdp/htmltest)
fi
# unpack_deb DEB SHA256 DEST: the .deb checked against its pinned SHA-256, unpacked into DEST
# whole or not at all (a .part folder renamed into place).
unpack_deb() {
  echo "$2  $1" | sha256sum --check --quiet
  rm -rf "$3.part" "$3" && mkdir -p "$3.part"
  dpkg-deb -x "$1" "$3.part"
  mv "$3.part" "$3"
}
# Stock kernels for guests, pinned by package, version and SHA-256 (runner/fsatlas/run/kernels.txt);
# unpacked into .tools/kernels/NAME, never installed as this machine's kernel.
while read -r name package version sha256 image path; do
  case "$name" in ''|'#'*) continue ;; esac
  [ -f ".tools/kernels/$name/$image" ] && continue
  step "kernel $name: $package $version"
  tmp=$(mktemp -d)
  if [ -n "$path" ]; then
    curl -fsS -o "$tmp/${package}_${version}_amd64.deb" "http://deb.debian.org/debian/$path"
  else
    (cd "$tmp" && { apt-get download -q "$package=$version" 2>/dev/null || { apt-get update -q && apt-get download -q "$package=$version"; }; })
  fi
  unpack_deb "$tmp/${package}_${version}_amd64.deb" "$sha256" ".tools/kernels/$name"
  rm -rf "$tmp"
done < runner/fsatlas/run/kernels.txt
# Packages no configured archive component ships, pinned by version and SHA-256
# (runner/fsatlas/run/packages.txt); unpacked into .tools/packages/NAME, their programs linked
# into .tools/sbin.
while read -r name version sha256 path programs; do
  case "$name" in ''|'#'*) continue ;; esac
  [ -f ".tools/packages/$name/.version-$version" ] && continue
  step "package $name $version ($path)"
  tmp=$(mktemp -d)
  curl -fsS -o "$tmp/p.deb" "http://deb.debian.org/debian/$path"
  unpack_deb "$tmp/p.deb" "$sha256" ".tools/packages/$name"
  touch ".tools/packages/$name/.version-$version"
  mkdir -p .tools/sbin
  for program in ${programs//,/ }; do
    ln -sfn "../packages/$name/$program" ".tools/sbin/$(basename "$program")"
  done
  rm -rf "$tmp"
done < runner/fsatlas/run/packages.txt
echo "setup: done"
