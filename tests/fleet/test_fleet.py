"""fleet/playbook.yml with real Ansible over real SSH to namespace hosts (sshd in each), one
host that cannot be reached: the others' results arrive, the failure is reported."""
import json
import os
import subprocess
from pathlib import Path

import pytest

from fsatlas.results.validation import validate_file

pytestmark = pytest.mark.root
REPO = Path(__file__).resolve().parents[2]
VENV = REPO / ".venv" / "bin"


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory):
    """The runner's dependencies and build backend as wheels, so the hosts install without PyPI."""
    folder = tmp_path_factory.mktemp("wheels")
    subprocess.run([VENV / "pip", "wheel", "-q", "--wheel-dir", folder, REPO / "runner", "setuptools>=64", "wheel"],
                   check=True, capture_output=True)
    return folder


def sshd_config(tmp_path, address, key_pub):
    hostkey = tmp_path / "hostkey"
    if not hostkey.exists():
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hostkey], check=True)
    (tmp_path / "authorized_keys").write_text(key_pub.read_text())
    config = tmp_path / f"sshd-{address}.conf"
    config.write_text(f"""ListenAddress {address}:22
HostKey {hostkey}
AuthorizedKeysFile {tmp_path / 'authorized_keys'}
PidFile {tmp_path / f'sshd-{address}.pid'}
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
""")
    return config


def test_fleet_run_fetches_every_result_and_reports_the_failed_host(hosts, tmp_path, wheelhouse):
    net = hosts(3)  # the third runs no sshd: a host that is down (its address is on this machine: nothing leaves it)
    os.makedirs("/run/sshd", exist_ok=True)  # sshd's privilege-separation directory
    key = tmp_path / "id"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
    for i in (1, 2):
        net.start(i, ["/usr/sbin/sshd", "-D", "-e", "-f", sshd_config(tmp_path, net.address(i), Path(f"{key}.pub"))], 22)
    inventory = tmp_path / "inventory.ini"
    inventory.write_text(f"""[all]
host-a ansible_host={net.address(1)} fsatlas_machine=fleet-a
host-b ansible_host={net.address(2)} fsatlas_machine=fleet-b
host-gone ansible_host={net.address(3)}

[all:vars]
ansible_user=root
ansible_ssh_private_key_file={key}
ansible_python_interpreter=/usr/bin/python3
ansible_ssh_common_args='-o UserKnownHostsFile=/dev/null'
fsatlas_home={tmp_path}/hosts/{{{{ inventory_hostname }}}}
""")
    data, fetched = tmp_path / "data", tmp_path / "fetched"
    data.mkdir()
    done = subprocess.run(
        [VENV / "ansible-playbook", "-i", inventory, REPO / "fleet" / "playbook.yml",
         "-e", "fsatlas_profile=tiny", "-e", "fsatlas_install_packages=false", "-e", "fsatlas_timeout=900",
         "-e", f"fsatlas_pip_args='--no-index --find-links {wheelhouse}'",
         "-e", "fsatlas_run_args='--fs ext4 --workload create-files'",  # one cell, no fio baseline: the fetch is what is tried
         "-e", f"fsatlas_data_dir={data}", "-e", f"fsatlas_fetch_dir={fetched}"],
        capture_output=True, text=True, timeout=1200,
        env={**os.environ, "ANSIBLE_HOST_KEY_CHECKING": "False", "ANSIBLE_CONFIG": str(REPO / "fleet" / "ansible.cfg"),
             # ssh's ControlPersist sockets are named by address, port and user only: in the shared
             # ~/.ansible/cp, another run's master to an address these hosts have now would carry
             # this run's commands into that run's namespace
             "ANSIBLE_SSH_CONTROL_PATH_DIR": str(tmp_path / "cp")})
    assert done.returncode != 0, done.stdout  # one host failed, and Ansible says so
    assert "no result from: host-gone" in done.stdout, done.stdout[-6000:]
    report = json.loads((fetched / "fleet-report.json").read_text())
    assert report["ok"] == ["host-a", "host-b"], (report, done.stdout[:6000])
    assert list(report["failed"]) == ["host-gone"]
    assert report["failed"]["host-gone"].startswith("unreachable: "), report  # its reason is ssh's, not a later step's
    assert f"connect to host {net.address(3)} port 22" in report["failed"]["host-gone"], report
    results = sorted((data / "results").iterdir())
    assert len(results) == 2
    machines = set()
    for path in results:
        assert [p for p in validate_file(str(path)) if p.severity == "error"] == []
        result = json.loads(path.read_text())
        machines.add(result["system"]["machine"])
        assert {c["status"] for c in result["cells"]} == {"ok"}
    assert machines == {"fleet-a", "fleet-b"}
