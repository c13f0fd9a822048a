//! A command the twin runs: argv words, run in a namespace, a lab's container or where
//! democ runs. The same list runs here (`ip netns exec`, `docker exec`) and prints as a
//! shell script (`democ twin script`), so the twin and a container running the script
//! do exactly the same thing.

use std::process::{Command, Stdio};

/// A place other than democ's own to run a command in.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum At {
    /// A network namespace of the twin's (`ip netns exec`).
    Netns(String),
    /// A container of a deployed lab (`docker exec`).
    Container(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cmd {
    /// Where it runs; None: where democ runs.
    pub(crate) at: Option<At>,
    /// `KEY=value` settings for this command only.
    pub(crate) env: Vec<(String, String)>,
    pub(crate) argv: Vec<String>,
}

impl Cmd {
    pub(crate) fn new<S: AsRef<str>>(argv: &[S]) -> Cmd {
        Cmd {
            at: None,
            env: Vec::new(),
            argv: argv.iter().map(|s| s.as_ref().to_owned()).collect(),
        }
    }

    pub(crate) fn arg(mut self, a: impl Into<String>) -> Cmd {
        self.argv.push(a.into());
        self
    }

    pub(crate) fn args<S: AsRef<str>>(mut self, words: impl IntoIterator<Item = S>) -> Cmd {
        self.argv
            .extend(words.into_iter().map(|w| w.as_ref().to_owned()));
        self
    }

    pub(crate) fn in_ns(mut self, ns: &str) -> Cmd {
        self.at = Some(At::Netns(ns.to_owned()));
        self
    }

    pub(crate) fn at(mut self, at: Option<At>) -> Cmd {
        self.at = at;
        self
    }

    pub(crate) fn with_env(mut self, env: &[(String, String)]) -> Cmd {
        self.env.extend_from_slice(env);
        self
    }

    /// The full argv to execute: `ip netns exec NS env K=V argv...`.
    fn full(&self) -> Vec<String> {
        let mut v = Vec::new();
        match &self.at {
            Some(At::Netns(ns)) => v.extend(["ip", "netns", "exec", ns].map(String::from)),
            Some(At::Container(c)) => v.extend(["docker", "exec", c].map(String::from)),
            None => {}
        }
        if !self.env.is_empty() {
            v.push("env".into());
            v.extend(self.env.iter().map(|(k, val)| format!("{k}={val}")));
        }
        v.extend(self.argv.iter().cloned());
        v
    }

    /// One shell line; every word quoted, so no value becomes another command.
    pub(crate) fn shell(&self) -> String {
        self.full()
            .iter()
            .map(|w| quote(w))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Runs it; Err with the command and its stderr when it fails.
    pub(crate) fn run(&self) -> Result<String, String> {
        let full = self.full();
        let out = Command::new(&full[0])
            .args(&full[1..])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("{}: {e}", self.shell()))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(format!(
                "`{}` failed ({}): {}",
                self.shell(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// Runs it with `input` on its standard input (`ip -batch -`); Err: what it said on
    /// its standard error.
    pub(crate) fn run_input(&self, input: &str) -> Result<String, String> {
        use std::io::Write as _;
        let full = self.full();
        let fail = |e: std::io::Error| format!("{}: {e}", self.shell());
        let mut child = Command::new(&full[0])
            .args(&full[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(fail)?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(input.as_bytes()).map_err(fail)?;
        }
        let out = child.wait_with_output().map_err(fail)?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
        }
    }

    /// Runs a command that leaves a daemon behind (`setsid -f ...`): no pipes, so the
    /// daemon cannot hold democ waiting for their end.
    pub(crate) fn run_detached(&self) -> Result<(), String> {
        let full = self.full();
        let status = Command::new(&full[0])
            .args(&full[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("{}: {e}", self.shell()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`{}` failed ({status})", self.shell()))
        }
    }

    /// Runs it and reports only whether it worked, with its output either way.
    pub(crate) fn try_run(&self) -> (bool, String) {
        match self.run() {
            Ok(s) => (true, s),
            Err(e) => (false, e),
        }
    }
}

/// POSIX shell single-quoting, skipped for words that need none.
pub(crate) fn quote(w: &str) -> String {
    let plain = !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=,+@%".contains(&b));
    if plain {
        w.to_owned()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_what_the_shell_would_split_or_run() {
        assert_eq!(quote("p0"), "p0");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("x';reboot;'"), r"'x'\'';reboot;'\'''");
        assert_eq!(quote(""), "''");
        let c = Cmd::new(&["ip", "link"]).in_ns("t-h1");
        assert_eq!(c.shell(), "ip netns exec t-h1 ip link");
        let c = Cmd::new(&["ip", "link"]).at(Some(At::Container("clab-t-h1".into())));
        assert_eq!(c.shell(), "docker exec clab-t-h1 ip link");
    }
}
