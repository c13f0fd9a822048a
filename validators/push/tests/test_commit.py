"""--commit: commit with a confirm timer, check, confirm; any failure rolls that device
back and leaves the others committed."""

from pushfix import healthy, mock_env, recording, reports

from democ_push.cli import main

EOS = ["crsi-arista", "cit-a-arista"]


def commit(sc16, tmp_path, **broken):
    """Commits two EOS switches; `broken[device] = {method: fixture}` overrides."""
    mock = tmp_path / "mock"
    for d in EOS:
        healthy(sc16, mock, d, **broken.get(d, {}))
    env = mock_env(mock)
    connect, opened = recording(env)
    argv = [str(sc16), "--commit", "--lldp-wait=0", "--revert-in=120", "--report-dir", str(tmp_path / "rep")]
    argv += [f"--device={d}" for d in EOS]
    code = main(argv, env=env, connect=connect)
    return code, reports(tmp_path / "rep"), opened


def test_a_clean_commit_is_checked_then_confirmed(sc16, tmp_path):
    code, rep, opened = commit(sc16, tmp_path)
    assert code == 0
    for d in EOS:
        r = rep[d]
        assert (r["committed"], r["rolled_back"], r["error"]) == (True, False, None), r
        assert r["confirm_timer_s"] == 120
        assert r["checks"]["ok"] and r["checks"]["lldp"]["checked"] and r["checks"]["lldp"]["expected"]
        log = opened[d].log
        assert log.index("commit_config") < log.index("get_lldp_neighbors") < log.index("confirm_commit"), log
        assert opened[d].has_pending_commit() is False


def test_a_commit_that_raises_rolls_back_that_device_only(sc16, tmp_path):
    boom = {"exception": "napalm.base.exceptions.CommitError", "args": ["session commit failed"]}
    code, rep, opened = commit(sc16, tmp_path, **{"cit-a-arista": {"commit_config": boom}})
    assert code == 1
    bad = rep["cit-a-arista"]
    assert bad["committed"] is False and bad["rolled_back"] is True
    assert bad["error"] == "commit: CommitError: session commit failed"
    assert "rollback" in opened["cit-a-arista"].log and "confirm_commit" not in opened["cit-a-arista"].log
    for d in ("crsi-arista",):
        assert rep[d]["committed"] is True and rep[d]["rolled_back"] is False and rep[d]["error"] is None
        assert "rollback" not in opened[d].log


def test_a_failing_lldp_check_rolls_back(sc16, tmp_path):
    # crsi-arista's Ethernet54/1 is cabled to scinet-core; the device sees another switch.
    lldp = {"Ethernet54/1": [{"hostname": "cit-a-arista.example.net", "port": "Ethernet41/1"}]}
    code, rep, opened = commit(sc16, tmp_path, **{"crsi-arista": {"get_lldp_neighbors": lldp}})
    assert code == 1
    r = rep["crsi-arista"]
    assert r["committed"] is False and r["rolled_back"] is True
    assert r["error"].startswith("post-commit check: CheckFailed: ")
    assert "Ethernet54/1: cabling says scinet-core, LLDP sees cit-a-arista" in r["checks"]["lldp"]["problems"]
    assert "rollback" in opened["crsi-arista"].log and "confirm_commit" not in opened["crsi-arista"].log
    assert rep["cit-a-arista"]["committed"] is True


def test_a_wrong_hostname_fails_the_check(sc16, tmp_path):
    facts = {"hostname": "someone-else", "os_version": "x", "vendor": "x", "model": "x", "uptime": 1.0,
             "serial_number": "1", "fqdn": "x", "interface_list": []}
    code, rep, _ = commit(sc16, tmp_path, **{"crsi-arista": {"get_facts": facts}})
    assert code == 1
    assert rep["crsi-arista"]["rolled_back"] is True
    assert "device says hostname 'someone-else'" in rep["crsi-arista"]["error"]


def test_an_unchanged_device_is_not_committed(sc16, tmp_path):
    code, rep, opened = commit(sc16, tmp_path, **{"crsi-arista": {"compare_config": {"diff": ""}}})
    assert code == 0
    assert rep["crsi-arista"]["committed"] is False and rep["crsi-arista"]["changed"] is False
    assert "commit_config" not in opened["crsi-arista"].log


def test_a_preamble_goes_in_front_of_every_config_of_its_os(sc16, tmp_path):
    pre = tmp_path / "eos-site.cfg"
    pre.write_text("username ops privilege 15 role network-admin secret sha512 $6$x\n")
    mock = tmp_path / "mock"
    healthy(sc16, mock, "crsi-arista")
    env = mock_env(mock)
    connect, opened = recording(env)
    code = main([str(sc16), "--device=crsi-arista", f"--preamble=eos={pre}", "--report-dir", str(tmp_path / "r")],
                env=env, connect=connect)
    assert code == 0
    loaded = opened["crsi-arista"].kwargs["load_replace_candidate"]["config"]
    assert loaded.startswith(pre.read_text()) and "hostname crsi-arista" in loaded
    assert main([str(sc16), "--preamble=junos=x"], env=env) == 2
    assert main([str(sc16), f"--preamble=eos={tmp_path / 'missing'}"], env=env) == 2
