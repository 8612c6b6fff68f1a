# The README's demo and the C consumer example, built by the shared profile.
run_one "demo-courtyard" cargo run --profile "$PROFILE" --example courtyard -- --out "$TARGET_DIR/courtyard.svg"
if [[ -f "$ROOT/examples/c/Makefile" ]]; then
    run_one "c-consumer-example" make -C "$ROOT/examples/c" run ARGUS_LIB_DIR="$OUT"
else
    record "c-consumer-example" 0 1
fi
