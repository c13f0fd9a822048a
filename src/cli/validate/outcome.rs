//! What one validator found, and the summary `democ validate` prints.

use serde_json::json;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Passed,
    Failed,
    /// It applies to the build, but democ could not run it here (a tool, a package or
    /// containerlab's schema missing, not root): said with the command that fixes it.
    NotRun,
    /// It does not apply to this build, or was not asked for.
    Skipped,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::NotRun => "not run",
            Status::Skipped => "skipped",
        }
    }
}

#[derive(Debug)]
pub(crate) struct Outcome {
    pub(crate) name: &'static str,
    pub(crate) status: Status,
    /// What passed, the first lines of why it failed, or why it was not run or skipped.
    pub(crate) detail: String,
    /// What makes a check that was not run run.
    pub(crate) fix: Option<String>,
}

impl Outcome {
    pub(crate) fn passed(name: &'static str, detail: impl Into<String>) -> Outcome {
        Outcome {
            name,
            status: Status::Passed,
            detail: detail.into(),
            fix: None,
        }
    }

    pub(crate) fn failed(name: &'static str, detail: impl Into<String>) -> Outcome {
        Outcome {
            name,
            status: Status::Failed,
            detail: detail.into(),
            fix: None,
        }
    }

    pub(crate) fn not_run(
        name: &'static str,
        why: impl Into<String>,
        fix: impl Into<String>,
    ) -> Outcome {
        Outcome {
            name,
            status: Status::NotRun,
            detail: why.into(),
            fix: Some(fix.into()),
        }
    }

    pub(crate) fn skipped(name: &'static str, detail: impl Into<String>) -> Outcome {
        Outcome {
            name,
            status: Status::Skipped,
            detail: detail.into(),
            fix: None,
        }
    }
}

/// How many lines of a failure's reason the summary shows: enough to see what broke,
/// the validator's own command prints the rest.
pub(crate) const WHY_LINES: usize = 8;

/// The first [`WHY_LINES`] non-blank lines of `text`, with a note of how many more.
pub(crate) fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out = lines
        .iter()
        .take(WHY_LINES)
        .copied()
        .collect::<Vec<_>>()
        .join("\n");
    if lines.len() > WHY_LINES {
        out.push_str(&format!("\n... {} more line(s)", lines.len() - WHY_LINES));
    }
    out
}

fn count(all: &[Outcome], s: Status) -> usize {
    all.iter().filter(|o| o.status == s).count()
}

/// One line per validator (a failure's further lines indented under it), then the
/// summary. Details quote tool output and paths, so control characters are escaped.
pub(crate) fn text(all: &[Outcome]) -> String {
    let width = all.iter().map(|o| o.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for o in all {
        let mut lines = o.detail.lines();
        let first = lines.next().unwrap_or("");
        out.push_str(&format!(
            "{:width$}  {}: {}\n",
            o.name,
            o.status.name(),
            crate::escape::line(first)
        ));
        for l in lines {
            out.push_str(&format!("{:width$}    {}\n", "", crate::escape::line(l)));
        }
        if let Some(fix) = &o.fix {
            out.push_str(&format!(
                "{:width$}    fix: {}\n",
                "",
                crate::escape::line(fix)
            ));
        }
    }
    out.push_str(&format!(
        "validate: {} passed, {} failed, {} not run, {} skipped\n",
        count(all, Status::Passed),
        count(all, Status::Failed),
        count(all, Status::NotRun),
        count(all, Status::Skipped)
    ));
    out
}

pub(crate) fn json(all: &[Outcome]) -> String {
    let v = json!({
        "validators": all
            .iter()
            .map(|o| match &o.fix {
                Some(fix) => json!({"name": o.name, "status": o.status.name(), "detail": o.detail, "fix": fix}),
                None => json!({"name": o.name, "status": o.status.name(), "detail": o.detail}),
            })
            .collect::<Vec<_>>(),
        "passed": count(all, Status::Passed),
        "failed": count(all, Status::Failed),
        "not_run": count(all, Status::NotRun),
        "skipped": count(all, Status::Skipped),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
