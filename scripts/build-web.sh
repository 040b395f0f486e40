#!/usr/bin/env bash
# Builds the web viewer into dist/ (trunk, release, offline), then dist/specdiff-offline.html:
# one self-contained file (JS glue, wasm as base64, CSS inlined) that also works from file://.
# Needs the tools scripts/setup.sh installs. Prints the gzip -9 sizes at the end.
# Usage: scripts/build-web.sh [--no-offline-html] [--public-url PATH] [--dist DIR]
#   --public-url  the path the page is served under (GitHub Pages: /REPO/); default: relative
#   --dist        output folder (default dist)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export PATH="$root/.tools/npm/node_modules/.bin:$HOME/.cargo/bin:$PATH"

offline_html=1
trunk_args=()
dist=dist
usage() { echo "usage: scripts/build-web.sh [--no-offline-html] [--public-url PATH] [--dist DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --no-offline-html) offline_html=0 ;;
    --public-url) [ $# -ge 2 ] || usage; trunk_args+=(--public-url "$2"); shift ;;
    --dist) [ $# -ge 2 ] || usage; dist=$2; shift ;;
    *) usage ;;
  esac
  shift
done

for tool in trunk wasm-bindgen wasm-opt; do
  command -v "$tool" >/dev/null || { echo "build-web: $tool not found; run scripts/setup.sh" >&2; exit 1; }
done

# trunk --offline also passes --offline to cargo: make sure every crate is in the local cache.
cargo fetch --quiet
trunk build --release --offline --dist "$dist" "${trunk_args[@]}"

if [ "$offline_html" = 1 ]; then
  python3 - "$dist" <<'PY'
import base64, json, pathlib, re, sys

dist = pathlib.Path(sys.argv[1])
html = (dist / "index.html").read_text()
# Asset paths start with the public URL (./ by default, /REPO/ for a sub-path build).
js_name = re.search(r"import init from '[^']*?([^'/]+\.js)'", html).group(1)
wasm_name = re.search(r"module_or_path: '[^']*?([^'/]+\.wasm)'", html).group(1)
css_names = re.findall(r'href="?[^ >"]*?([^/ >"]+\.css)', html)
glue = (dist / js_name).read_text()
wasm = base64.b64encode((dist / wasm_name).read_bytes()).decode()
css = "\n".join((dist / c).read_text() for c in css_names)
# The demo pair travels inside the file too (fetched from data: URLs by "load demo").
demo_dir = dist / "demo"
demo = [
    "data:application/json;base64," + base64.b64encode((demo_dir / f).read_bytes()).decode()
    for f in ("base.json", "head.json")
    if (demo_dir / f).exists()
]

# The glue is an ES module. It is kept as text: the page imports it from a blob: URL, and the
# app hands the text to its worker, which imports it from a blob: URL of its own (a file://
# page's blob: URLs are not importable from its worker). The wasm bytes are decoded and compiled
# once; the compiled module goes to init (and, from the app, to the worker).
# "</script" cannot occur inside a script element; the glue and base64 never contain it, but check.
assert "</script" not in glue.lower()
loader = f"""<script id="specdiff-glue" type="text/plain">{glue}</script>
<script id="specdiff-wasm" type="application/octet-stream">{wasm}</script>
<script type="module">
const glueText = document.getElementById('specdiff-glue').textContent;
const glueUrl = URL.createObjectURL(new Blob([glueText], {{ type: 'text/javascript' }}));
globalThis.specdiffGlue = glueUrl;
globalThis.specdiffGlueText = glueText;
globalThis.specdiffDemo = {json.dumps(demo) if len(demo) == 2 else "undefined"};
const b64 = document.getElementById('specdiff-wasm').textContent;
const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const {{ default: init }} = await import(glueUrl);
await init({{ module_or_path: await WebAssembly.compile(bytes) }});
</script>"""

out = html
# file:// has no origin to allow: the offline page may load nothing but what it carries.
out = re.sub(r"(connect-src|script-src|style-src) 'self' ", r"\1 ", out)
# Drop trunk's loader, preloads and stylesheet links; inline the CSS.
out = re.sub(r'<script type="?module"?>.*?</script>', "", out, flags=re.S)
out = re.sub(r'<link[^>]*rel="?(modulepreload|preload|stylesheet)"?[^>]*>', "", out)
assert "<script" not in out and ".wasm" not in out and ".css" not in out, "trunk's loader was not fully replaced"
out = out.replace("</head>", f"<style>{css}</style></head>", 1)
out = out.replace("</body>", loader + "</body>", 1)
(dist / "specdiff-offline.html").write_text(out)
PY
fi

# Sizes (what a browser downloads, gzip -9).
echo "build-web: sizes (bytes, raw / gzip -9):"
total=0
for f in "$dist"/*.wasm "$dist"/*.js "$dist"/*.css "$dist"/index.html ${offline_html:+"$dist"/specdiff-offline.html}; do
  [ -f "$f" ] || continue
  raw=$(stat -c%s "$f")
  gz=$(gzip -9c "$f" | wc -c)
  printf '  %-48s %9d %9d\n' "$(basename "$f")" "$raw" "$gz"
  case "$f" in *.wasm|*.js) total=$((total + gz)) ;; esac
done
printf '  %-48s %9s %9d\n' "wasm + js" "" "$total"
