# SPDX-License-Identifier: MIT
# Sourced by .ci/install-deps and .ci/install-test-deps: apt_install PACKAGE...
# installs the packages not yet installed (through sudo unless root).

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi

missing_of() {
    missing=""
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    echo "$missing"
}

apt_install() {
    missing=$(missing_of "$@")
    if [ -n "$missing" ]; then
        $sudo apt-get update
        # shellcheck disable=SC2086
        $sudo apt-get install -y --no-install-recommends $missing
    fi
}
