# The benchmark report, small version: proves every scenario still runs (ratios are printed,
# not asserted: these machines are too noisy for timed assertions).
run_one "benchmark-report-quick" cargo bench --profile "$PROFILE" --bench report -- --quick
