# Lints: clippy with warnings as errors, and formatting (.rustfmt.toml).
run_one "clippy" cargo clippy --profile "$PROFILE" --workspace --all-targets -- -D warnings
run_one "rustfmt" cargo fmt --all --check
