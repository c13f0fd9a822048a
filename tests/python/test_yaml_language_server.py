"""The editor's completions, asked of the real yaml-language-server (issue 12 §6): a spec
that names schema/democ.schema.json in its modeline gets the catalog's models after
`model:`, its optics after `optic:`, and under `wan:` only the fields of the entry's
`kind`. The server is the npm package pinned in tests/editor/package.json (test.sh
installs it with `npm ci` where npm is present); without node or the package the test
skips and test_schema_completion.py still checks the schema itself."""

import json
import os
import pathlib
import shutil
import subprocess

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests" / "editor" / "node_modules" / ".bin" / "yaml-language-server"
SCHEMA_URI = (ROOT / "schema" / "democ.schema.json").as_uri()


class Server:
    """A yaml-language-server over stdio, spoken to in LSP's JSON-RPC."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [str(SERVER), "--stdio"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.next_id = 0

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("yaml-language-server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value.strip())
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        me = self.next_id
        self.send({"jsonrpc": "2.0", "id": me, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == me and "method" not in msg:
                return msg.get("result")
            if "id" in msg and "method" in msg:
                # The server asks for settings (workspace/configuration) or to register
                # capabilities: answer so it goes on.
                items = msg.get("params", {}).get("items", [])
                result = [self.settings() for _ in items] if msg["method"] == "workspace/configuration" else None
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    @staticmethod
    def settings():
        return {"completion": True, "validate": True, "hover": True, "schemaStore": {"enable": False}}

    def close(self):
        self.proc.kill()
        self.proc.wait()


@pytest.fixture(scope="module")
def server():
    if not shutil.which("node") or not SERVER.exists():
        pytest.skip("yaml-language-server is not installed (npm ci --prefix tests/editor)")
    s = Server()
    s.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {}})
    s.notify("initialized", {})
    s.notify("workspace/didChangeConfiguration", {"settings": {"yaml": Server.settings()}})
    yield s
    s.close()


def complete(server, name, text):
    """Completion labels at the end of `text` (a spec with the schema modeline)."""
    doc = f"# yaml-language-server: $schema={SCHEMA_URI}\n{text}"
    uri = f"file:///tmp/democ-editor-test/{name}.yaml"
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": doc}},
    )
    lines = doc.split("\n")
    pos = {"line": len(lines) - 1, "character": len(lines[-1])}
    result = server.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": pos})
    items = result.get("items", []) if isinstance(result, dict) else (result or [])
    return {i["label"] for i in items}


def names(file, section):
    return set(yaml.safe_load((ROOT / "catalog" / file).read_text())[section])


def test_model_offers_the_catalog_switches(server):
    got = complete(server, "model", "switches:\n  sw1:\n    model: ")
    assert names("switches.yaml", "switches") <= got, got


def test_optic_offers_the_catalog_optics(server):
    got = complete(server, "optic", 'links:\n  - a: "sw1:1/1"\n    b: "sw2:1/1"\n    optic: ')
    assert names("optics.yaml", "optics") <= got, got


def test_an_otn_link_is_not_offered_dark_fiber_fields(server):
    got = complete(server, "otn", "wan:\n  - name: dci\n    kind: otn\n    ")
    assert {"client", "optic", "client_a", "client_b"} <= got, got
    # The fiber plant is the client runs' (inside `client_a`/`client_b`), not the WAN's.
    assert not {"splices", "fiber"} & got, got
