#!/usr/bin/env bash
# Checks that every C++ source in the tree is formatted as .clang-format says (clang-format
# 14, Debian bookworm's). Lists the files that are not and exits non-zero. With --fix it
# formats them in place instead.
set -euo pipefail
cd "$(dirname "$0")/.."

clang_format=$(command -v clang-format-14 || command -v clang-format) || {
  echo "check-format: clang-format not found (scripts/install-deps.sh installs it)" >&2
  exit 1
}
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard \
    '*.h' '*.cpp' '*.cuh' '*.cu' | sort)
else
  mapfile -t files < <(find accel tests examples benchmarks -type f \
    \( -name '*.h' -o -name '*.cpp' -o -name '*.cuh' -o -name '*.cu' \) | sort)
fi

if [[ ${1:-} == --fix ]]; then
  "$clang_format" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi

unformatted=()
for file in "${files[@]}"; do
  [[ -f $file ]] || continue  # listed by git but deleted in the work tree
  if ! "$clang_format" --dry-run --Werror "$file" >/dev/null 2>&1; then
    unformatted+=("$file")
  fi
done
if ((${#unformatted[@]})); then
  echo "check-format: ${#unformatted[@]} of ${#files[@]} files need clang-format" \
    "(scripts/check-format.sh --fix formats them):"
  printf '  %s\n' "${unformatted[@]}"
  exit 1
fi
echo "check-format: all ${#files[@]} files formatted"
