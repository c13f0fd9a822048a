"""The default: load, diff, discard; nothing committed, every device's diff printed."""

from pushfix import healthy, mock_env, recording, reports

from democ_push.cli import main

EOS = ["cit-a-arista", "crsi-arista"]


def dry_run(sc16, tmp_path, capsys):
    mock = tmp_path / "mock"
    healthy(sc16, mock, "cit-a-arista", diff="-   mtu 1500\n+   mtu 9196\n")
    healthy(sc16, mock, "crsi-arista", diff="")
    env = mock_env(mock)
    connect, opened = recording(env)
    argv = [str(sc16), "--report-dir", str(tmp_path / "rep")] + [f"--device={d}" for d in EOS]
    code = main(argv, env=env, connect=connect)
    return code, capsys.readouterr().out, reports(tmp_path / "rep"), opened


def test_a_changed_config_shows_its_diff_and_an_unchanged_one_none(sc16, tmp_path, capsys):
    code, out, rep, _ = dry_run(sc16, tmp_path, capsys)
    assert code == 0, out
    assert "cit-a-arista (eos, mock, dry-run): changed (2 diff lines)" in out
    assert "    +   mtu 9196" in out
    assert "crsi-arista (eos, mock, dry-run): no change" in out
    assert rep["cit-a-arista"]["changed"] is True and "+   mtu 9196" in rep["cit-a-arista"]["diff"]
    assert rep["crsi-arista"]["changed"] is False and rep["crsi-arista"]["diff"] == ""
    assert set(rep) == set(EOS)


def test_a_dry_run_never_commits(sc16, tmp_path, capsys):
    code, out, rep, opened = dry_run(sc16, tmp_path, capsys)
    assert code == 0
    for name in EOS:
        log = opened[name].log
        assert log[:3] == ["load_replace_candidate", "compare_config", "discard_config"], log
        assert not {"commit_config", "confirm_commit", "rollback"} & set(log), log
        assert rep[name]["action"] == "dry-run" and rep[name]["committed"] is False
    assert "nothing committed" in out


def test_every_report_has_the_stable_keys(sc16, tmp_path, capsys):
    _, _, rep, _ = dry_run(sc16, tmp_path, capsys)
    keys = ["device", "os", "driver", "action", "diff", "changed", "committed", "rolled_back", "error", "checks"]
    for r in rep.values():
        assert list(r)[: len(keys)] == keys
