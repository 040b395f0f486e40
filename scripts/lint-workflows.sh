#!/usr/bin/env bash
# Lints every GitHub workflow (.github/workflows/*.yml, *.yaml), every action.yml of the
# repository and the two workflows docs/ci.md gives users to copy, with actionlint and zizmor (both installed by scripts/setup.sh into .tools/lint).
# actionlint reads workflows only; it checks an action.yml through the workflows that use it
# (`uses: ./`); zizmor audits both kinds. zizmor runs --offline (no GitHub API here); a finding
# that is accepted carries a `# zizmor: ignore[...]` comment with the reason on its line.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.tools/lint/bin:$PATH"
for tool in actionlint zizmor; do
  command -v "$tool" >/dev/null || { echo "lint-workflows: $tool not found; run scripts/setup.sh" >&2; exit 1; }
done
shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
mapfile -t actions < <(git ls-files --cached --others --exclude-standard -- 'action.yml' '*/action.yml' 'action.yaml' '*/action.yaml')
if [ ${#workflows[@]} -eq 0 ]; then
  echo "lint-workflows: no workflow in .github/workflows" >&2
  exit 1
fi
# docs/ci.md's recipe, as a user would have it (the commit placeholder made a full SHA).
recipe="$(mktemp -d)"
trap 'rm -rf "$recipe"' EXIT
python3 - docs/ci.md "$recipe" <<'PY'
import pathlib, re, sys
text = pathlib.Path(sys.argv[1]).read_text()
blocks = re.findall(r"^`\.github/workflows/([\w.-]+\.yml)`.*?\n```yaml\n(.*?)```", text, re.S | re.M)
if len(blocks) != 2:
    sys.exit(f"lint-workflows: docs/ci.md: expected 2 workflow blocks, found {len(blocks)}")
for name, body in blocks:
    (pathlib.Path(sys.argv[2]) / name).write_text(body.replace("@COMMIT", "@" + "0" * 40))
PY
workflows+=("$recipe"/*.yml)
echo "lint-workflows: ${workflows[*]} ${actions[*]}"
actionlint "${workflows[@]}"
echo "ok   actionlint: ${#workflows[@]} workflows (2 from docs/ci.md)"
zizmor --offline --no-progress "${workflows[@]}" "${actions[@]}"
echo "ok   zizmor: ${#workflows[@]} workflows, ${#actions[@]} actions"
