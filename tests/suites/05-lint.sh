# Lints: clippy with warnings as errors, and formatting (.rustfmt.toml). The Godot crate (gdext, a
# long build) is linted by its own suite, 50-godot.sh.
run_one "clippy" cargo clippy --profile "$PROFILE" --workspace --exclude argus-godot --all-targets -- -D warnings
run_one "rustfmt" cargo fmt --all --check
