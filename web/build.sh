#!/usr/bin/env bash
# Builds the browser version into dist/ (or $1): a folder of static files any web server can serve,
# each with a gzip (.gz) and a brotli (.br) copy beside it for servers that send those as they are.
# Needs: rustup target add wasm32-unknown-unknown; wasm-bindgen-cli at the version of wasm-bindgen in
# Cargo.lock (cargo install wasm-bindgen-cli --version X.Y.Z); Debian's brotli and python3-fonttools.
# No wasm-opt pass: Debian 12's (binaryen 108) at -Oz took 4 min here and left the gzipped wasm
# larger (2,403,357 -> 2,429,387 bytes, before SIMD and the fonts' cut).
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
command -v brotli >/dev/null || { echo "web/build.sh: brotli is needed (Debian's brotli package)" >&2; exit 1; }
/usr/bin/python3 -c "import fontTools" 2>/dev/null ||
    { echo "web/build.sh: fontTools is needed (Debian's python3-fonttools package)" >&2; exit 1; }

# egui's text fonts cut to the scripts and symbols lessons use, without hinting (web/src/fonts.rs).
egui_fonts=$(cargo metadata --format-version 1 --filter-platform wasm32-unknown-unknown | /usr/bin/python3 -c '
import json, os, sys
packages = json.load(sys.stdin)["packages"]
print(next(os.path.dirname(p["manifest_path"]) for p in packages if p["name"] == "epaint_default_fonts"))')/fonts
fonts="$(realpath -m "$target_dir")/web-fonts"
mkdir -p "$fonts"
for font in Ubuntu-Light Hack-Regular; do
    /usr/bin/python3 -m fontTools.subset "$egui_fonts/$font.ttf" --output-file="$fonts/$font.ttf" \
        --unicodes="U+0020-007E,U+00A0-017F,U+0370-03FF,U+2000-206F,U+20AC,U+2190-21FF,U+2200-23FF,U+2500-257F,U+25A0-25FF" \
        --layout-features='*' --no-hinting 2>/dev/null
done
export SEARCHLAB_WEB_FONTS="$fonts"

cargo build -p searchlab-web --target wasm32-unknown-unknown --profile web
mkdir -p "$out"
# Function names only serve debuggers: without them the wasm is ~10% smaller.
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section --out-dir "$out" \
    "$target_dir/wasm32-unknown-unknown/web/searchlab_web.wasm"
wasm="$out/searchlab_web_bg.wasm"
# The page shows download progress against the wasm's size, whether the server compresses it or not.
sed "s/WASM_BYTES/$(stat -c %s "$wasm")/" web/index.html >"$out/index.html"
cp web/worker.js "$out/"
for file in "$out"/index.html "$out"/worker.js "$out"/searchlab_web.js "$wasm"; do
    gzip -9 -n -k -f "$file"
    brotli -q 11 -k -f "$file"
done
ls -l "$out"
echo "web/build.sh: serve it with: python3 -m http.server -d $out 8000   (then open http://127.0.0.1:8000/)"
