# Shared by the bench scripts (sourced, not run): builds democ in release and sets
# $democ, a scratch folder $work removed on exit, and `revision` (the commit measured).
cargo build --release --quiet
democ=$PWD/target/release/democ
work=$(mktemp -d)
revision() { # commit (+dirty) of the sources measured; DEMOC_REV overrides
    if [ -n "${DEMOC_REV:-}" ]; then echo "$DEMOC_REV"; return; fi
    local r
    r=$(git rev-parse --short HEAD 2>/dev/null) || { echo unknown; return; }
    git diff --quiet HEAD -- src templates catalog 2>/dev/null || r="$r+dirty"
    echo "$r"
}
trap 'rm -rf "$work"' EXIT
