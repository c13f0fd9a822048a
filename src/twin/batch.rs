//! The twin's switches brought up together. Each `ovs-vsctl` that changes the database
//! waits for `ovs-vswitchd` to reconfigure, and the one daemon reconfigures every
//! bridge it has: a command per port made `twin up` grow with the square of the
//! switches. So the twin runs its switches' steps in three phases: each switch's own
//! steps in order (links, addresses, routes, FRR: nothing there needs a bridge), then
//! every database change of every switch as one `ovs-vsctl` transaction (one
//! reconfiguration, which it waits for), then each switch's OpenFlow rules (`ovs-ofctl`
//! talks to a bridge, which exists only once the daemon has made it). A lab container
//! runs the same steps in order as a script: there the switch's SVIs are internal ports
//! its addresses need first, so only the twin splits them.

use super::cmd::{At, Cmd};
use super::switch::Step;

fn run_step(st: &Step) -> Result<(), String> {
    match st {
        Step::Run(c) => c.run().map(|_| ()),
        Step::Write { path, text } => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            Ok(crate::write::file(path, text.as_bytes())?)
        }
    }
}

/// An `ip` command `ip -batch` can take as one of its lines: no environment, no option
/// of its own, in a namespace or where democ runs, every word free of what its line
/// splitting reads (white space, quotes, backslashes, comments).
fn batchable(c: &Cmd) -> bool {
    c.argv.first().is_some_and(|p| p == "ip")
        && c.env.is_empty()
        && !matches!(c.at, Some(At::Container(_)))
        && c.argv
            .get(1)
            .is_some_and(|w| !w.starts_with('-') && w != "netns")
        && c.argv[1..].iter().all(|w| {
            !w.is_empty()
                && !w
                    .chars()
                    .any(|ch| ch.is_whitespace() || "\"'\\#".contains(ch))
        })
}

/// Runs steps in order, each run of `ip` commands at one place as one `ip [-n NS] -batch
/// -` (an `ip netns exec` costs a process and a copy of every mount, which grows with
/// the twin's namespaces; a line of a batch costs neither); the first error.
pub(crate) fn run(steps: &[Step]) -> Result<(), String> {
    let mut k = 0;
    while k < steps.len() {
        let Step::Run(first) = &steps[k] else {
            run_step(&steps[k])?;
            k += 1;
            continue;
        };
        if !batchable(first) {
            run_step(&steps[k])?;
            k += 1;
            continue;
        }
        let n = steps[k..]
            .iter()
            .take_while(|st| matches!(st, Step::Run(c) if batchable(c) && c.at == first.at))
            .count();
        let lines: Vec<&Cmd> = steps[k..k + n]
            .iter()
            .filter_map(|st| match st {
                Step::Run(c) => Some(c),
                Step::Write { .. } => None,
            })
            .collect();
        ip_batch(&lines)?;
        k += n;
    }
    Ok(())
}

/// `ip` commands at one place as one `ip -batch`; an error names the command that
/// failed.
fn ip_batch(cmds: &[&Cmd]) -> Result<(), String> {
    let Some(first) = cmds.first() else {
        return Ok(());
    };
    let mut ip = Cmd::new(&["ip"]);
    if let Some(At::Netns(ns)) = &first.at {
        ip = ip.arg("-n").arg(ns.clone());
    }
    let input: String = cmds
        .iter()
        .map(|c| format!("{}\n", c.argv[1..].join(" ")))
        .collect();
    ip.arg("-batch")
        .arg("-")
        .run_input(&input)
        .map(|_| ())
        .map_err(|said| {
            // `ip -batch` ends with "Command failed -:LINE".
            let line = said
                .rsplit_once("Command failed -:")
                .and_then(|(_, n)| n.trim().parse::<usize>().ok());
            match line.and_then(|n| cmds.get(n.wrapping_sub(1))) {
                Some(c) => format!("`{}` failed: {said}", c.shell()),
                None => format!(
                    "`{}` (a batch of {}) failed: {said}",
                    first.shell(),
                    cmds.len()
                ),
            }
        })
}

/// `ip netns add` or `ip netns del` (`verb`) of every name, as one batch that goes on
/// past a name it cannot make or delete; Err: what `ip` said about those.
pub(crate) fn namespaces(verb: &str, names: &[String]) -> Result<(), String> {
    if names.is_empty() {
        return Ok(());
    }
    let input: String = names
        .iter()
        .map(|n| format!("netns {verb} {n}\n"))
        .collect();
    Cmd::new(&["ip", "-force", "-batch", "-"])
        .run_input(&input)
        .map(|_| ())
        .map_err(|said| format!("`ip netns {verb}` of {} namespaces: {said}", names.len()))
}

/// Runs groups of steps on a few threads (each group in order, as `run` does); the first
/// error.
pub(crate) fn run_side_by_side(groups: &[Vec<Step>]) -> Result<(), String> {
    let threads = std::thread::available_parallelism()
        .map_or(2, usize::from)
        .clamp(2, 8);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let worker = || -> Result<(), String> {
        loop {
            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(g) = groups.get(k) else {
                return Ok(());
            };
            run(g)?;
        }
    };
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads).map(|_| s.spawn(worker)).collect();
        hs.into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a bring-up thread panicked".into()))
            })
            .collect::<Result<Vec<()>, String>>()
            .map(|_| ())
    })
}

/// A switch's steps, split into the three phases.
#[derive(Debug, Default)]
pub(crate) struct Phases {
    /// Per switch, every step that is not Open vSwitch's, in order.
    pub(crate) own: Vec<Vec<Step>>,
    /// Every switch's database changes as transactions (one, for one Open vSwitch).
    pub(crate) database: Vec<Cmd>,
    /// Per switch, its `ovs-ofctl` commands, in order.
    pub(crate) rules: Vec<Vec<Step>>,
}

/// Which phase a step belongs to.
enum Phase {
    Own(Step),
    Database(Cmd),
    Rules(Step),
}

fn phase(st: Step) -> Phase {
    let runs = |c: &Cmd, program: &str| c.argv.first().is_some_and(|p| p == program);
    match st {
        Step::Run(c) if runs(&c, "ovs-vsctl") => Phase::Database(c),
        Step::Run(c) if runs(&c, "ovs-ofctl") => Phase::Rules(Step::Run(c)),
        st => Phase::Own(st),
    }
}

/// The phases of the switches' steps (`groups`: one list per switch).
pub(crate) fn split(groups: Vec<Vec<Step>>) -> Phases {
    let mut p = Phases::default();
    let mut changes = Vec::new();
    for g in groups {
        let (mut own, mut rules) = (Vec::new(), Vec::new());
        for st in g {
            match phase(st) {
                Phase::Database(c) => changes.push(c),
                Phase::Rules(st) => rules.push(st),
                Phase::Own(st) => own.push(st),
            }
        }
        p.own.push(in_batches(own));
        p.rules.push(rules);
    }
    p.database = transactions(changes);
    p
}

/// A switch's own steps in an order that batches them: `ip` commands first (those where
/// democ runs first: they make the veths the others set up), grouped by namespace, in
/// order within each; then the rest in order. Nothing else there makes what an `ip`
/// command needs (FRR's daemons, which read the addresses, stay after them).
fn in_batches(own: Vec<Step>) -> Vec<Step> {
    let mut keyed: Vec<((u8, Option<At>), Step)> = own
        .into_iter()
        .map(|st| {
            let key = match &st {
                Step::Run(c) if batchable(c) && c.at.is_none() => (0, None),
                Step::Run(c) if batchable(c) => (1, c.at.clone()),
                _ => (2, None),
            };
            (key, st)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, st)| st).collect()
}

/// `ovs-vsctl` commands joined into as few as keep their meaning: consecutive commands
/// with the same place, environment and options become one, their commands chained with
/// `--`. Its timeout grows with what the one reconfiguration has to do.
pub(crate) fn transactions(cmds: Vec<Cmd>) -> Vec<Cmd> {
    let mut out: Vec<(Cmd, usize)> = Vec::new();
    for c in cmds {
        let (opts, words) = options(&c);
        let key = |x: &Cmd| (x.at.clone(), x.env.clone(), options(x).0);
        match out.last_mut() {
            Some((last, n)) if key(last) == (c.at.clone(), c.env.clone(), opts) => {
                last.argv.push("--".into());
                last.argv.extend(words);
                *n += 1;
            }
            _ => out.push((c, 1)),
        }
    }
    out.into_iter()
        .map(|(mut c, n)| {
            // A bridge's reconfiguration takes a few milliseconds on an idle machine;
            // a loaded one may take ten times that.
            let secs = 10 + n / 4;
            for w in &mut c.argv {
                if w.starts_with("--timeout=") {
                    *w = format!("--timeout={secs}");
                }
            }
            c
        })
        .collect()
}

/// A `ovs-vsctl` command's global options (before its first command, `--timeout` left
/// out: the joined command sets its own) and the words of its commands.
fn options(c: &Cmd) -> (Vec<String>, Vec<String>) {
    let words = c.argv.get(1..).unwrap_or_default();
    let n = words
        .iter()
        .take_while(|w| w.starts_with("--") && w.len() > 2)
        .count();
    let opts = words[..n]
        .iter()
        .filter(|w| !w.starts_with("--timeout="))
        .cloned()
        .collect();
    (opts, words[n..].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vsctl_cmd(words: &[&str]) -> Cmd {
        Cmd::new(&["ovs-vsctl", "--timeout=10", "--db=unix:/x/db.sock"])
            .args(words)
            .in_ns("t-ovs")
    }

    fn vsctl(words: &[&str]) -> Step {
        Step::Run(vsctl_cmd(words))
    }

    #[test]
    fn database_changes_become_one_transaction_and_the_rest_keeps_its_order() {
        let own = |w: &str| Step::Run(Cmd::new(&["ip", "link", "set", w, "up"]).in_ns("t-ovs"));
        let ofctl = Step::Run(Cmd::new(&["ovs-ofctl", "del-flows", "s0of"]));
        let groups = vec![
            vec![
                own("s0p0"),
                vsctl(&["add-br", "s0l2", "--", "set", "bridge", "s0l2", "x=y"]),
                vsctl(&["add-port", "s0l2", "s0p0"]),
                own("s0v1"),
                ofctl,
            ],
            vec![own("s1p0"), vsctl(&["add-br", "s1l2"])],
        ];
        let p = split(groups);
        assert_eq!(p.database.len(), 1);
        assert_eq!(
            p.database[0].shell(),
            "ip netns exec t-ovs ovs-vsctl --timeout=10 --db=unix:/x/db.sock add-br s0l2 -- set bridge s0l2 x=y -- add-port s0l2 s0p0 -- add-br s1l2"
        );
        let shown = |g: &[Step]| {
            g.iter()
                .filter_map(|s| match s {
                    Step::Run(c) => Some(c.argv.join(" ")),
                    Step::Write { .. } => None,
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            shown(&p.own[0]),
            ["ip link set s0p0 up", "ip link set s0v1 up"]
        );
        assert_eq!(shown(&p.own[1]), ["ip link set s1p0 up"]);
        assert_eq!(shown(&p.rules[0]), ["ovs-ofctl del-flows s0of"]);
        assert!(p.rules[1].is_empty());
    }

    #[test]
    fn a_large_transaction_waits_longer_and_other_options_stay_apart() {
        let many: Vec<Cmd> = (0..100)
            .map(|k| vsctl_cmd(&["add-br", &format!("s{k}l2")]))
            .collect();
        let one = transactions(many);
        assert_eq!(one.len(), 1);
        assert!(one[0].argv.contains(&"--timeout=35".to_owned()));
        let apart = transactions(vec![
            Cmd::new(&["ovs-vsctl", "--db=unix:/a", "add-br", "a"]),
            Cmd::new(&["ovs-vsctl", "--db=unix:/b", "add-br", "b"]),
        ]);
        assert_eq!(apart.len(), 2);
    }

    #[test]
    fn own_steps_run_ip_first_by_place_and_the_rest_after_in_order() {
        let ip = |at: Option<&str>, w: &str| {
            let c = Cmd::new(&["ip", "link", "set", w, "up"]);
            Step::Run(match at {
                Some(ns) => c.in_ns(ns),
                None => c,
            })
        };
        let other = |w: &str| Step::Run(Cmd::new(&["ethtool", "-K", w, "tx", "off"]).in_ns("t-s"));
        let steps = vec![
            ip(Some("t-s"), "lo"),
            other("a"),
            ip(Some("t-ovs"), "p0"),
            ip(None, "veth"),
            ip(Some("t-s"), "vlan1"),
            other("b"),
        ];
        let shown: Vec<String> = in_batches(steps)
            .iter()
            .filter_map(|s| match s {
                Step::Run(c) => Some(c.shell()),
                Step::Write { .. } => None,
            })
            .collect();
        assert_eq!(
            shown,
            [
                "ip link set veth up",
                "ip netns exec t-ovs ip link set p0 up",
                "ip netns exec t-s ip link set lo up",
                "ip netns exec t-s ip link set vlan1 up",
                "ip netns exec t-s ethtool -K a tx off",
                "ip netns exec t-s ethtool -K b tx off",
            ]
        );
        // What `ip -batch` would split differently runs on its own.
        assert!(!batchable(&Cmd::new(&["ip", "link", "set", "a b", "up"])));
        assert!(!batchable(&Cmd::new(&["ip", "netns", "exec", "x", "sh"])));
    }

    /// A batch that fails names the command that failed (here a device no machine has:
    /// nothing is changed).
    #[test]
    fn a_failed_batch_names_its_command() {
        let steps = [
            Step::Run(Cmd::new(&["ip", "link", "show", "lo"])),
            Step::Run(Cmd::new(&["ip", "link", "set", "democ-none-x", "up"])),
        ];
        let e = run(&steps).expect_err("no such device");
        assert!(
            e.starts_with("`ip link set democ-none-x up` failed:"),
            "{e}"
        );
    }
}
