#!/usr/bin/env bash
# Builds the browser version into dist/ (or $1): a folder of static files any web server can serve.
# Needs: rustup target add wasm32-unknown-unknown, and wasm-bindgen-cli at the version of
# wasm-bindgen in Cargo.lock (cargo install wasm-bindgen-cli --version X.Y.Z).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
target_dir="${CARGO_TARGET_DIR:-target}"

locked=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
installed=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$installed" != "$locked" ]; then
    echo "web/build.sh: wasm-bindgen-cli $locked is needed (found '${installed:-none}'):" >&2
    echo "  cargo install wasm-bindgen-cli --version $locked" >&2
    exit 1
fi

cargo build -p searchlab-web --target wasm32-unknown-unknown --profile web
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" \
    "$target_dir/wasm32-unknown-unknown/web/searchlab_web.wasm"
cp web/index.html web/worker.js "$out/"
echo "web/build.sh: serve it with: python3 -m http.server -d $out 8000   (then open http://127.0.0.1:8000/)"
