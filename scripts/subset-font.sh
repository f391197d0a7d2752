#!/usr/bin/env bash
# Rebuilds the self-hosted Bengali web fonts in public/fonts/ (see docs/decisions/002-bengali-font.md).
#
# Source: Noto Sans Bengali 2.001 (SIL OFL 1.1) from Debian 12 (bookworm) packages, no other download:
#   - fonts-noto-core   (20201225-1) -> /usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf   (weight 400)
#   - fonts-noto-extra  (20201225-1) -> /usr/share/fonts/truetype/noto/NotoSansBengali-SemiBold.ttf  (weight 600)
#   Both are static TrueType fonts (no variable version in Debian), hence one file per weight.
#   If a file is not installed, the script fetches its package with `apt-get download` and unpacks it
#   into a temporary directory (fonts-noto-extra is ~330 MB installed; only one file of it is needed).
# Tools: python3-fonttools and python3-brotli (apt-get install python3-fonttools python3-brotli).
#
# Command run for each weight (unhinted: hinting would add ~50 % for little gain on today's renderers):
#   pyftsubset NotoSansBengali-<Weight>.ttf --unicodes="$UNICODES" --layout-features='*' \
#     --no-hinting --name-IDs=0,1,2,3,4,5,6,13,14 --flavor=woff2 \
#     --output-file=public/fonts/noto-sans-bengali-<400|600>.woff2
#
# Usage: scripts/subset-font.sh            (from any directory; writes into this repo's public/fonts)
#        NOTO_DIR=/path/to/ttfs scripts/subset-font.sh
set -euo pipefail

# Bengali block, Devanagari danda/double danda (used in Bengali), ZWNJ/ZWJ, dotted circle,
# and the basic punctuation and digits the font itself carries (it has no $, &, @ or Latin letters).
# Keep in sync with the unicode-range of the @font-face rules.
UNICODES="U+0020-0023,U+0025,U+0027-003F,U+00A0,U+00AD,U+0964-0965,U+0980-09FF,U+200C-200D,U+2010,U+2013-2014,U+2018-2019,U+201C-201D,U+2026,U+25CC"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_dir="$repo_root/public/fonts"
noto_dir="${NOTO_DIR:-/usr/share/fonts/truetype/noto}"
work_dir="$(mktemp -d)"
trap 'rm -rf "$work_dir"' EXIT

# The first python3 that has fontTools and brotli (a pyenv or venv python may lack the Debian modules).
python=""
for candidate in "${PYTHON:-}" python3 /usr/bin/python3; do
  if [ -n "$candidate" ] && "$candidate" -c 'import fontTools.subset, brotli' 2>/dev/null; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  echo "fontTools/brotli not found: apt-get install python3-fonttools python3-brotli" >&2
  exit 1
fi

# font_path <package> <file>: the installed TTF, or the one unpacked from the downloaded package.
font_path() {
  local package="$1" file="$2"
  if [ -f "$noto_dir/$file" ]; then
    echo "$noto_dir/$file"
    return
  fi
  local unpacked="$work_dir/$package"
  if [ ! -d "$unpacked" ]; then
    echo "$file not installed; fetching $package with apt-get download" >&2
    (cd "$work_dir" && apt-get download "$package" >&2)
    dpkg-deb -x "$work_dir"/"$package"_*.deb "$unpacked"
  fi
  echo "$unpacked/usr/share/fonts/truetype/noto/$file"
}

subset() {
  local source="$1" target="$2"
  "$python" -m fontTools.subset "$source" \
    --unicodes="$UNICODES" \
    --layout-features='*' \
    --no-hinting \
    --name-IDs=0,1,2,3,4,5,6,13,14 \
    --flavor=woff2 \
    --output-file="$target"
}

mkdir -p "$out_dir"
subset "$(font_path fonts-noto-core NotoSansBengali-Regular.ttf)" "$out_dir/noto-sans-bengali-400.woff2"
subset "$(font_path fonts-noto-extra NotoSansBengali-SemiBold.ttf)" "$out_dir/noto-sans-bengali-600.woff2"

# The licence travels with the font files (OFL condition 2): the OFL-1.1 text of the Debian
# copyright file, with Debian's one-space indent and " ." paragraph markers undone.
copyright_file=/usr/share/doc/fonts-noto-core/copyright
if [ ! -f "$copyright_file" ]; then
  copyright_file="$(dirname "$(font_path fonts-noto-core NotoSansBengali-Regular.ttf)")/../../../doc/fonts-noto-core/copyright"
fi
{
  echo "Noto Sans Bengali (files noto-sans-bengali-400.woff2, noto-sans-bengali-600.woff2 in this folder)"
  echo "Copyright 2010, 2012-2020 Google Inc.; 2015-2020 Google LLC (Debian copyright file)."
  echo "Font name table: Copyright 2017 Google Inc. All Rights Reserved."
  echo
  echo "This Font Software is licensed under the SIL Open Font License, Version 1.1."
  echo "These files are Modified Versions (subset, unhinted, WOFF2) of NotoSansBengali-Regular.ttf and"
  echo "NotoSansBengali-SemiBold.ttf version 2.001 from the Debian packages fonts-noto-core and"
  echo "fonts-noto-extra (20201225-1), made by scripts/subset-font.sh. No Reserved Font Name is declared."
  echo "This license is copied below, and is also available with a FAQ at: https://openfontlicense.org"
  echo
  echo "-----------------------------------------------------------"
  echo "SIL OPEN FONT LICENSE Version 1.1 - 26 February 2007"
  echo "-----------------------------------------------------------"
  echo
  # Only the stand-alone "License: OFL-1.1" paragraph (it starts after a blank line) holds the text.
  awk '
    prev == "" && /^License: OFL-1.1$/ { inside = 1; prev = $0; next }
    inside && !/^ / { inside = 0 }
    inside { line = substr($0, 2); print (line == "." ? "" : line) }
    { prev = $0 }
  ' "$copyright_file"
} > "$out_dir/LICENSE-OFL.txt"

for f in "$out_dir"/noto-sans-bengali-*.woff2; do
  printf '%s\t%s bytes\n' "${f#"$repo_root"/}" "$(wc -c < "$f")"
done
