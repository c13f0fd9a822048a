"""Credentials never leave the process; a folder that is not a build is a usage error."""

from pushfix import PASSWORD, healthy, mock_env, reports, run_module

from democ_push.cli import main
from democ_push.report import MASK


def test_the_password_is_never_printed_or_reported(sc16, tmp_path):
    # The driver's exception quotes the password, as a failed login line or URL can: the
    # shim must blot it out of stdout, stderr and the report.
    mock = tmp_path / "mock"
    leak = {"exception": "napalm.base.exceptions.CommitError", "args": [f"login admin:{PASSWORD} refused"]}
    healthy(sc16, mock, "scinet-core", commit_config=leak)
    healthy(sc16, mock, "crsi-arista")
    rep = tmp_path / "rep"
    p = run_module([str(sc16), "--commit", "--lldp-wait=0", "--report-dir", str(rep),
                    "--device=scinet-core", "--device=crsi-arista"], mock_env(mock))
    assert p.returncode == 1, p.stdout + p.stderr
    files = "".join(f.read_text() for f in rep.iterdir())
    for where in (p.stdout, p.stderr, files):
        assert PASSWORD not in where
    assert f"login admin:{MASK} refused" in p.stdout
    assert reports(rep)["scinet-core"]["error"] == f"commit: CommitError: login admin:{MASK} refused"


def test_a_folder_that_is_not_a_build_exits_2(tmp_path):
    p = run_module([str(tmp_path)], {})
    assert p.returncode == 2
    assert "no readable manifest.json" in p.stderr and "democ build" in p.stderr
    (tmp_path / "manifest.json").write_text('{"format": "something else"}')
    assert run_module([str(tmp_path)], {}).returncode == 2


def test_usage_problems_exit_2(sc16, tmp_path, capsys):
    env = mock_env(tmp_path)
    assert main([str(sc16), "--report-dir", str(sc16 / "push-report")], env=env) == 2
    assert "inside the build" in capsys.readouterr().err
    assert not (sc16 / "push-report").exists()
    assert main([str(sc16), "--device", "no-such-switch"], env=env) == 2
    assert "no switch no-such-switch" in capsys.readouterr().err
    assert main([str(sc16)], env={"DEMOC_PUSH_DRIVER": "junos"}) == 2
    assert main([str(sc16), "--parallel", "0"], env=env) == 2
    # A report folder that cannot be made stops the push before any switch is touched.
    (tmp_path / "a-file").write_text("")

    def connect(*_):
        raise AssertionError("no switch may be contacted")

    assert main([str(sc16), "--commit", "--report-dir", str(tmp_path / "a-file" / "r")], env=env, connect=connect) == 2


def test_credentials_from_the_environment_per_device_first():
    from democ_push.credentials import lookup

    env = {"DEMOC_PUSH_USER": "ops", "DEMOC_PUSH_PASSWORD": "pw-global", "DEMOC_PUSH_PASSWORD_CIT_A_ARISTA": "pw-cit"}
    c = lookup(env, None, "cit-a-arista", "192.0.2.1")
    assert (c.username, c.password) == ("ops", "pw-cit")
    c = lookup(env, None, "crsi-arista", "192.0.2.2")
    assert c.password == "pw-global" and "pw-global" not in repr(c)


def test_credentials_from_netrc_by_management_address(tmp_path):
    from democ_push.credentials import lookup

    rc = tmp_path / "netrc"
    rc.write_text("machine 192.0.2.7 login netops password s3cret\n")
    rc.chmod(0o600)
    c = lookup({}, rc, "sw", "192.0.2.7")
    assert (c.username, c.password) == ("netops", "s3cret")
    assert lookup({}, rc, "sw", "192.0.2.8") is None


def test_a_device_without_credentials_fails_alone(sc16, tmp_path, capsys):
    mock = tmp_path / "mock"
    healthy(sc16, mock, "scinet-core")
    env = {"DEMOC_PUSH_DRIVER": "mock", "DEMOC_PUSH_MOCK_DIR": str(mock)}
    code = main([str(sc16), "--device=scinet-core", "--netrc", str(tmp_path / "none"),
                 "--report-dir", str(tmp_path / "rep")], env=env)
    assert code == 1
    assert reports(tmp_path / "rep")["scinet-core"]["error"].startswith("no credentials")


def _crafted(sc16, tmp_path):
    """A copy of the sc16 build the tests may alter."""
    import shutil

    b = tmp_path / "build"
    shutil.copytree(sc16, b, symlinks=True)
    return b


def test_a_config_symlinked_out_of_the_build_is_refused_not_sent(sc16, tmp_path, capsys):
    b = _crafted(sc16, tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-OUTSIDE-THE-BUILD\n")
    cfg = b / "switches" / "scinet-core.cfg"
    cfg.unlink()
    cfg.symlink_to(secret)
    code = main([str(b), "--device=scinet-core", "--report-dir", str(tmp_path / "rep")], env=mock_env(tmp_path))
    out = capsys.readouterr()
    assert code == 2
    assert "symlink" in out.err
    assert "SECRET" not in out.out + out.err


def test_a_device_whose_ir_differs_from_the_manifest_is_not_contacted_unless_named(sc16, tmp_path, capsys):
    import json

    b = _crafted(sc16, tmp_path)
    ir = b / "ir" / "scinet-core.json"
    doc = json.loads(ir.read_text())
    doc["management"]["address"]["address"] = "203.0.113.66"
    ir.write_text(json.dumps(doc))
    mock = tmp_path / "mock"
    healthy(b, mock, "crsi-arista")
    healthy(b, mock, "scinet-core")
    env = mock_env(mock)
    contacted = []

    def connect(driver, device, creds):
        contacted.append((device.name, device.address))
        from democ_push import drivers

        return drivers.connect(driver, device, creds, env)

    rep = tmp_path / "rep"
    code = main([str(b), "--commit", "--lldp-wait=0", "--report-dir", str(rep)], env=env, connect=connect)
    out = capsys.readouterr().out
    assert code == 1
    assert ("scinet-core", "203.0.113.66") not in contacted
    assert "not contacted: `ir/scinet-core.json` differs from the build's manifest" in reports(rep)["scinet-core"]["error"]
    assert "scinet-core: address 203.0.113.66, credentials from environment" in out
    # Named, it is the user's decision.
    contacted.clear()
    main([str(b), "--device=scinet-core", "--report-dir", str(rep)], env=env, connect=connect)
    assert contacted == [("scinet-core", "203.0.113.66")]


def test_netrc_entries_match_the_host_contacted_only(tmp_path):
    from democ_push.credentials import lookup

    rc = tmp_path / "netrc"
    rc.write_text("machine scinet-core login netops password s3cret\n")
    rc.chmod(0o600)
    assert lookup({}, rc, "scinet-core", "203.0.113.66") is None


def test_encoded_forms_of_the_password_are_masked():
    import base64
    from urllib.parse import quote

    from democ_push.credentials import Credentials, secrets
    from democ_push.report import redact

    pw = "p@ss w/rd:1"
    s = secrets([Credentials("admin", pw)])
    for leaked in (quote(pw, safe=""), pw.encode().hex(), base64.b64encode(f"admin:{pw}".encode()).decode()):
        assert redact(f"sent {leaked} to the switch", s) == f"sent {MASK} to the switch", leaked


def test_an_ir_with_text_democ_never_writes_is_refused(sc16, tmp_path, capsys):
    import json

    for field, value, why in (("hostname", "scinet-core;reboot", "hostname"),
                              ("address", "evil.example.com", "management address")):
        b = _crafted(sc16, tmp_path / field)
        ir = b / "ir" / "scinet-core.json"
        doc = json.loads(ir.read_text())
        if field == "hostname":
            doc["hostname"] = value
        else:
            doc["management"]["address"]["address"] = value
        ir.write_text(json.dumps(doc))
        code = main([str(b), "--report-dir", str(tmp_path / field / "rep")], env=mock_env(tmp_path))
        assert code == 2
        assert why in capsys.readouterr().err
