//! Rendering: the minijinja environment with the embedded templates (strict undefined,
//! no auto-escaping: the IR holds text already made safe for each CLI), optionally
//! overridden file by file from `--templates DIR`. A template error is a bug (in democ
//! or in an override) and is reported with the template's name and line.

use std::path::{Path, PathBuf};

use minijinja::value::{Serde, Value};
use minijinja::{AutoEscape, Environment, UndefinedBehavior, context};

use crate::ir::Switch;
use crate::read::TextError;
use crate::vendor::EMBEDDED;

/// The templates democ renders with.
pub(crate) struct Renderer {
    env: Environment<'static>,
    /// Templates taken from `--templates`, by name (`dell/os10.j2`).
    pub(crate) overridden: Vec<String>,
    /// Templates that print a switch's ruleset (`openflow_rules`, `openflow_meters`):
    /// only their switches get its ovs-ofctl text made.
    prints_rules: Vec<String>,
}

/// Why the templates did not load or a template did not render.
#[derive(Debug)]
pub(crate) enum RenderError {
    /// A `--templates` file that could not be read.
    Override(TextError),
    Syntax(minijinja::Error),
    /// A template that did not load or render; `overridden` when it came from
    /// `--templates` (else it is a bug in democ).
    Template {
        error: minijinja::Error,
        overridden: bool,
    },
    /// `--templates DIR` replaces none of democ's templates.
    NoneOverridden {
        dir: PathBuf,
    },
}

impl RenderError {
    fn template(error: minijinja::Error, overridden: &[String]) -> RenderError {
        let name = error.name().unwrap_or("?");
        let overridden = overridden.iter().any(|o| o == name);
        RenderError::Template { error, overridden }
    }
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::Override(e) => write!(f, "template override: {e}"),
            RenderError::Syntax(e) => e.fmt(f),
            RenderError::Template { error, overridden } => {
                let name = error.name().unwrap_or("?");
                let line = error.line().map_or(String::new(), |l| format!(" line {l}"));
                let detail = error.detail().map_or(String::new(), |d| format!(": {d}"));
                let whose = if *overridden {
                    "in the overriding template"
                } else {
                    "a bug in democ"
                };
                write!(
                    f,
                    "template `{name}`{line}: {}{detail} ({whose})",
                    error.kind()
                )
            }
            RenderError::NoneOverridden { dir } => write!(
                f,
                "`{}` holds no template democ uses (names like `os10.j2` or `dell/os10.j2`)",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for RenderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RenderError::Override(e) => Some(e),
            RenderError::Syntax(error) | RenderError::Template { error, .. } => Some(error),
            RenderError::NoneOverridden { .. } => None,
        }
    }
}

/// `DIR/<vendor>/<file>` or `DIR/<file>`: the override of an embedded template, if any.
fn override_of(dir: &Path, name: &str) -> Result<Option<String>, RenderError> {
    let file = name.rsplit('/').next().unwrap_or(name);
    for path in [dir.join(name), dir.join(file)] {
        // Anything by that name is read through the bounded reader, which refuses
        // FIFOs and devices and stops at the size limit.
        if path.exists() {
            return crate::read::text(&path, crate::read::MAX_FILE_BYTES)
                .map(Some)
                .map_err(RenderError::Override);
        }
    }
    Ok(None)
}

impl Renderer {
    /// Loads every embedded template, replacing those `overrides` has a file for.
    pub(crate) fn new(overrides: Option<&Path>) -> Result<Renderer, RenderError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_auto_escape_callback(|_| AutoEscape::None);
        let syntax = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .map_err(RenderError::Syntax)?;
        env.set_syntax(syntax);
        env.add_filter("sh", sh_word);
        env.add_filter("line", one_line);
        let mut overridden = Vec::new();
        // The report's templates print HTML, with their own environment (report/page.rs).
        let ours = |n: &str| n.ends_with(".j2") && !n.starts_with(crate::report::page::FOLDER);
        for (name, text) in EMBEDDED.iter().filter(|(n, _)| ours(n)) {
            let source = match overrides
                .map(|d| override_of(d, name))
                .transpose()?
                .flatten()
            {
                Some(s) => {
                    overridden.push((*name).to_owned());
                    s
                }
                None => (*text).to_owned(),
            };
            env.add_template_owned(*name, source)
                .map_err(|e| RenderError::template(e, &overridden))?;
        }
        if let Some(dir) = overrides {
            if overridden.is_empty() {
                return Err(RenderError::NoneOverridden {
                    dir: dir.to_owned(),
                });
            }
        }
        let prints_rules = env
            .templates()
            .filter(|(_, t)| {
                let names = t.undeclared_variables(false);
                names.contains("openflow_rules") || names.contains("openflow_meters")
            })
            .map(|(name, _)| name.to_owned())
            .collect();
        Ok(Renderer {
            env,
            overridden,
            prints_rules,
        })
    }

    /// One DTN's script.
    pub(crate) fn host(
        &self,
        h: &crate::ir::host::Host,
        show: &str,
    ) -> Result<String, RenderError> {
        self.print(
            &h.template,
            context! { host => Value::from(Serde(h)), show => show },
        )
    }

    /// One NVMe-oF script: the target's (no initiator) or an initiator's.
    pub(crate) fn fabric(
        &self,
        f: &crate::ir::fabric::Fabric,
        i: Option<&crate::ir::fabric::Initiator>,
        show: &str,
    ) -> Result<String, RenderError> {
        let template = i.map_or(&f.target.template, |i| &i.template);
        self.print(
            template,
            context! {
                fabric => Value::from(Serde(f)),
                t => Value::from(Serde(&f.target)),
                i => i.map(|i| Value::from(Serde(i))),
                show => show,
            },
        )
    }

    /// One switch's config text.
    pub(crate) fn switch(&self, sw: &Switch, show: &str) -> Result<String, RenderError> {
        // The ruleset as ovs-ofctl prints it, for scripts that load it themselves
        // (PicOS in OVS mode): the very text of `openflow/<switch>.flows`.
        let prints = self.prints_rules.contains(&sw.template);
        let (rules, meter_text) = match &sw.openflow {
            Some(of) if prints => (
                crate::rulesets::ofctl::flows(&sw.hostname, show, &of.ruleset),
                crate::rulesets::ofctl::meters(&of.ruleset),
            ),
            _ => (String::new(), String::new()),
        };
        let meters: Vec<String> = meter_text.lines().map(str::to_owned).collect();
        self.print(
            &sw.template,
            context! {
                sw => Value::from(Serde(sw)),
                show => show,
                openflow_rules => rules,
                openflow_meters => meters,
            },
        )
    }

    /// A template's text for `ctx`, tidied; errors name the template and its line.
    fn print(&self, template: &str, ctx: Value) -> Result<String, RenderError> {
        let text = self
            .env
            .get_template(template)
            .and_then(|t| t.render(ctx))
            .map_err(|e| RenderError::template(e, &self.overridden))?;
        Ok(tidy(&text))
    }
}

/// No trailing spaces, no runs of blank lines, exactly one final newline.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines().map(str::trim_end) {
        if line.is_empty() {
            if !blank && !out.is_empty() {
                out.push('\n');
            }
            blank = true;
            continue;
        }
        blank = false;
        out.push_str(line);
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// One word for a POSIX shell: as it is when it holds only characters no shell treats
/// specially, else in single quotes (a quote inside as `'\''`). Host scripts print every
/// value through this, so no spec value can become another command.
fn sh_word(word: String) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./:=,@%+-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Text for a comment line: control characters (a line break above all, which would end
/// the comment and start a command) become spaces.
fn one_line(text: String) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::routing::StaticRoute;

    /// Templates only print the IR, so every CLI template must render every switch of the
    /// render fixture (whatever its vendor), with every section filled, without an error.
    #[test]
    fn every_template_prints_every_section() {
        let (_, mut lab) = crate::testkit::render_fixture();
        let r = Renderer::new(None).expect("templates compile");
        let cli: Vec<&str> = EMBEDDED
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| n.ends_with(".j2") && !n.ends_with("-ovs.j2"))
            .filter(|n| !n.starts_with("linux/") && !n.starts_with("report/"))
            // A device with no switch OS gets no config: its template prints one comment.
            .filter(|n| !n.starts_with("appliance/"))
            .collect();
        assert_eq!(cli.len(), 8);
        for sw in &mut lab.switches {
            sw.static_routes.push(StaticRoute {
                prefix: "10.99.0.0/16".into(),
                next_hop: "10.255.0.1".into(),
            });
            for t in &cli {
                sw.template = (*t).to_owned();
                let text = r
                    .switch(sw, "mini")
                    .unwrap_or_else(|e| panic!("{} through {t}: {e}", sw.hostname));
                assert!(text.contains("10.99.0.0/16"), "{t} prints static routes");
                assert!(text.ends_with('\n') && !text.ends_with("\n\n"));
            }
            if sw.openflow.is_some() {
                sw.template = "pica8/picos-ovs.j2".into();
                r.switch(sw, "mini")
                    .unwrap_or_else(|e| panic!("{} through OVS: {e}", sw.hostname));
            }
        }
    }

    /// Only templates that print the ruleset's text get it made, and the value a template
    /// sees leaves the ruleset out while the IR's JSON keeps it.
    #[test]
    fn rulesets_reach_only_the_templates_that_print_them() {
        let (_, mut lab) = crate::testkit::render_fixture();
        let r = Renderer::new(None).expect("templates compile");
        assert_eq!(r.prints_rules, ["pica8/picos-ovs.j2"]);
        let sw = lab
            .switches
            .iter_mut()
            .find(|s| {
                s.openflow
                    .as_ref()
                    .is_some_and(|o| !o.ruleset.rules.is_empty())
            })
            .expect("the fixture has an OpenFlow switch with rules");
        let seen = Value::from(Serde(&*sw))
            .get_attr("openflow")
            .and_then(|o| o.get_attr("ruleset"))
            .expect("the template value has the field");
        assert!(seen.is_none(), "a template sees no ruleset: {seen:?}");
        let json = serde_json::to_value(&*sw).expect("serialises");
        assert!(
            json["openflow"]["ruleset"]["rules"]
                .as_array()
                .is_some_and(|r| !r.is_empty())
        );
        sw.template = "pica8/picos-ovs.j2".into();
        let text = r.switch(sw, "mini").expect("renders");
        let ruleset = &sw.openflow.as_ref().expect("OpenFlow").ruleset;
        let flows = crate::rulesets::ofctl::flows(&sw.hostname, "mini", ruleset);
        let line = flows
            .lines()
            .find(|l| l.contains("cookie="))
            .expect("a rule line");
        assert!(text.contains(line), "the OVS config loads the rules");
    }

    #[test]
    fn shell_words_are_quoted_when_needed() {
        assert_eq!(sh_word("10.0.0.1/24".into()), "10.0.0.1/24");
        assert_eq!(sh_word("a b".into()), "'a b'");
        assert_eq!(sh_word("x;reboot".into()), "'x;reboot'");
        assert_eq!(sh_word("it's".into()), r"'it'\''s'");
        assert_eq!(sh_word("$(id)".into()), "'$(id)'");
        assert_eq!(sh_word(String::new()), "''");
        assert_eq!(one_line("a\nreboot\r".into()), "a reboot ");
    }

    #[test]
    fn tidy_trims_and_collapses() {
        assert_eq!(tidy("a  \n\n\n b\n\n"), "a\n\n b\n");
    }
}
