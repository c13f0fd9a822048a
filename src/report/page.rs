//! The report's templates (`templates/report/`, embedded with the others) and the
//! environment that prints them: autoescape on for HTML and SVG, strict about undefined
//! values. Escaping is democ's own `escape::html` rather than minijinja's default, which
//! also escapes `/` (a page of paths would be full of `&#x2f;`) and leaves control
//! characters as they are; `escape::html` shows those as visible symbols.

use minijinja::value::Value;
use minijinja::{AutoEscape, Environment, Error, Output, State, UndefinedBehavior};

use crate::vendor::EMBEDDED;

/// Where the report's templates are, among the embedded ones.
pub(crate) const FOLDER: &str = "report/";

/// The page up to its list of files.
pub(crate) const BODY: &str = "report/index.html.j2";
/// The list of files and the footer.
pub(crate) const FILES: &str = "report/files.html.j2";

/// The environment with the report's templates. An error is a bug in a template.
pub(crate) fn environment() -> Result<Environment<'static>, Error> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".html.j2") || name.ends_with(".svg.j2") {
            AutoEscape::Html
        } else {
            AutoEscape::None
        }
    });
    env.set_formatter(escape);
    env.add_filter("fixed", fixed);
    for (name, text) in EMBEDDED.iter().filter(|(n, _)| n.starts_with(FOLDER)) {
        env.add_template(name, text)?;
    }
    Ok(env)
}

/// Prints a value, escaping text where the template autoescapes.
fn escape(out: &mut Output, state: &mut State, value: &Value) -> Result<(), Error> {
    match (state.auto_escape(), value.as_str()) {
        (AutoEscape::Html, Some(text)) if !value.is_safe() => {
            out.write_str(&crate::escape::html(text))?;
            Ok(())
        }
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// A number with `digits` decimals, as Rust prints it (`{:.1}`); none prints nothing.
fn fixed(value: Option<f64>, digits: usize) -> String {
    value.map_or(String::new(), |v| format!("{v:.digits$}"))
}
