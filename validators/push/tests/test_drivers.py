"""What each OS goes through, and what the shim does where it cannot commit."""

from pathlib import Path

from democ_push import drivers, push
from democ_push.build import load
from democ_push.credentials import Credentials
from democ_push.netmiko_adapter import NetmikoAdapter
from democ_push.report import text


class FakeSession:
    """Stands in for netmiko's ConnectHandler: records how it was opened and what it was
    sent (the adapter must send nothing)."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.sent: list = []
        self.closed = False

    def send_config_set(self, lines):
        self.sent.append(lines)

    def disconnect(self):
        self.closed = True


class Diffing:
    """A driver that shows a diff and would commit: the shim must stop before it does."""

    def open(self): pass
    def close(self): pass
    def load_replace_candidate(self, filename=None, config=None): pass
    def compare_config(self): return "+hostname crsi-arista"
    def discard_config(self): pass
    def commit_config(self, message="", revert_in=None): raise AssertionError("must not commit")


def device(build: Path, name: str):
    return next(d for d in load(build) if d.name == name)


def opts(build: Path, commit: bool) -> push.Options:
    return push.Options(build, commit, 300, 0.0)


def test_each_os_has_its_driver():
    got = {os: (d.name, d.no_commit is None) for os, d in drivers.BY_OS.items()}
    assert got == {
        "eos": ("eos", True),
        "os10": ("dellos10", False),
        "ftos9": ("netmiko:dell_force10", False),
        "onyx": ("netmiko:mellanox_mlnxos", False),
        "picos": ("manual", False),
        "sonic": ("manual", False),
        "cumulus": ("manual", False),
    }


def netmiko_run(build: Path, name: str, commit: bool):
    sessions = []

    def connect(drv, dev, creds):
        a = NetmikoAdapter(drv.name.split(":")[1], dev.address, creds.username, creds.password,
                           connect=lambda **kw: sessions.append(FakeSession(**kw)) or sessions[-1])
        a.open()
        return a

    d = device(build, name)
    r = push.run(d, drivers.BY_OS[d.os], Credentials("admin", "pw"), connect, opts(build, commit), {})
    return d, r, sessions[0]


def test_netmiko_dry_run_logs_in_sends_nothing_and_shows_the_config(sc16):
    d, r, s = netmiko_run(sc16, "dell-z9100", commit=False)
    assert s.kwargs == {"device_type": "dell_force10", "host": d.address, "username": "admin", "password": "pw"}
    assert s.sent == [] and s.closed
    assert r["error"] is None and r["diff"] is None and r["changed"] is None and r["diff_unavailable"]
    shown = text(r, d.config)
    assert "diff unavailable" in shown and "    hostname dell-z9100" in shown


def test_netmiko_commit_is_refused_with_manual_steps(sc16):
    d, r, s = netmiko_run(sc16, "cit-a-sn2700", commit=True)
    assert s.sent == []
    assert r["committed"] is False and r["error"] is None
    assert r["skipped"].startswith("not committed: netmiko is a CLI session")
    assert any("configuration text file cit-a-sn2700.cfg apply" in step for step in r["manual_steps"])


def test_the_adapter_refuses_a_commit_itself():
    a = NetmikoAdapter("dell_force10", "192.0.2.1", "u", "p", connect=FakeSession)
    try:
        a.commit_config()
    except NotImplementedError as e:
        assert "no rollback" in str(e)
    else:
        raise AssertionError("commit_config must refuse")


def test_picos_is_manual_and_never_connects(sc16):
    def connect(*_):
        raise AssertionError("PicOS must not be connected to")

    for name, first in (("sl-inventec-1", "scp "), ("ucsd-inventec", "ssh ")):
        d = device(sc16, name)
        r = push.run(d, drivers.chooser({})(d), Credentials("u", "p"), connect, opts(sc16, True), {})
        assert r["driver"] == "manual" and r["error"] is None and r["committed"] is False
        assert r["manual_steps"][0].startswith(first) and d.config_file in "".join(r["manual_steps"])


def test_sonic_is_manual_with_config_load_and_reload(sc25):
    def connect(*_):
        raise AssertionError("SONiC must not be connected to")

    d = device(sc25, "scinet-core")
    assert d.os == "sonic" and d.config_db_file == "switches/scinet-core.config_db.json"
    assert d.unverified is None
    r = push.run(d, drivers.chooser({})(d), Credentials("u", "p"), connect, opts(sc25, True), {})
    assert r["driver"] == "manual" and r["error"] is None and r["committed"] is False
    steps = "\n".join(r["manual_steps"])
    for part in (d.config_db_file, d.config_file, "/etc/sonic/frr/frr.conf",
                 "sudo config load /tmp/democ-config_db.json -y", "sudo config save -y",
                 "sudo config reload -y"):
        assert part in steps, part


def test_cumulus_is_manual_with_nv_config_replace_and_apply(sc25):
    def connect(*_):
        raise AssertionError("Cumulus Linux must not be connected to")

    d = device(sc25, "nv-sn4700")
    assert d.os == "cumulus" and d.nvue_file == "switches/nv-sn4700.nvue.yaml"
    assert d.unverified is None
    r = push.run(d, drivers.chooser({})(d), Credentials("u", "p"), connect, opts(sc25, True), {})
    assert r["driver"] == "manual" and r["error"] is None and r["committed"] is False
    steps = "\n".join(r["manual_steps"])
    for part in (d.nvue_file, "nv config replace /tmp/democ-nvue.yaml", "nv config apply",
                 "nv config save", f"do not copy {sc25}/{d.config_file}"):
        assert part in steps, part


def test_os10_goes_to_dellos10_and_its_commit_to_manual_steps(sc16):
    # The dellos10 plugin's diff works; its replace commit does not, so the shim shows the
    # diff and prints steps instead of committing.
    from pushfix import Recorder

    import napalm

    d = device(sc16, "pop-i2-sw")
    drv = drivers.chooser({})(d)
    assert drv.name == "dellos10" and napalm.get_network_driver(drv.name).__name__ == "DellOS10Driver"
    assert not drivers.has_confirm_timer(napalm.get_network_driver(drv.name)("h", "u", "p"))

    rec = Recorder(Diffing())
    r = push.run(d, drv, Credentials("u", "p"), lambda *_: rec, opts(sc16, True), {})
    assert r["changed"] is True and r["committed"] is False and r["error"] is None
    assert r["skipped"].startswith("not committed: napalm-dellos10")
    assert "commit_config" not in rec.log and rec.log[-2:] == ["discard_config", "close"]


def test_a_device_without_a_management_address_is_skipped(sc16):
    from dataclasses import replace

    d = replace(device(sc16, "scinet-core"), address=None)
    r = push.run(d, drivers.MOCK, Credentials("u", "p"), None, opts(sc16, False), {})
    assert r["skipped"] == "the IR has no management address" and r["error"] is None


def test_an_eos_replace_that_would_lock_the_switch_out_is_refused(sc16):
    # democ writes no users and no eAPI: replaced as built, the switch would drop NAPALM's
    # own session and every login.
    from pushfix import Recorder

    d = device(sc16, "crsi-arista")
    rec = Recorder(Diffing())
    r = push.run(d, drivers.BY_OS["eos"], Credentials("u", "p"), lambda *_: rec, opts(sc16, True), {})
    assert r["committed"] is False and r["rolled_back"] is False
    assert r["error"].startswith("refused before commit, the replace would lock the switch out: ")
    assert "management api http-commands" in r["error"] and "--preamble eos=FILE" in r["error"]
    assert "commit_config" not in rec.log and "discard_config" in rec.log
    # The dry run says the same as a warning, and is not a failure.
    r = push.run(d, drivers.BY_OS["eos"], Credentials("u", "p"), lambda *_: Recorder(Diffing()), opts(sc16, False), {})
    assert r["error"] is None and len(r["lockout"]) == 2
    assert "warning: --commit would refuse this replace" in text(r, d.config)


def test_a_preamble_with_users_and_eapi_clears_the_lockout_check(sc16):
    from democ_push.lockout import risks

    site = "username ops secret sha512 $6$x\nmanagement api http-commands\n   no shutdown\n!\n"
    assert risks("eos", site + device(sc16, "crsi-arista").config) == []
    assert risks("eos", "management api http-commands\n   shutdown\nusername a nopassword\n") != []
    assert risks("mock", "") == []
