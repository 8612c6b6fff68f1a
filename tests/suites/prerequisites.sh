# Installs the system packages the suites need (Debian/Ubuntu, root). Suites that need more
# append to ARGUS_APT_PACKAGES in their own prerequisites_* function below.
install_prerequisites() {
    local need=()
    command -v cargo >/dev/null || { echo "error: a Rust toolchain (cargo) is required"; return 1; }
    command -v gcc >/dev/null || need+=(gcc)
    command -v g++ >/dev/null || need+=(g++)
    command -v make >/dev/null || need+=(make)
    command -v valgrind >/dev/null || need+=(valgrind)
    if [[ ${#need[@]} -gt 0 ]]; then
        if [[ $(id -u) -ne 0 ]]; then
            echo "missing packages (${need[*]}); run as root or install them"
            return 1
        fi
        echo "== installing ${need[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    fi
}
