#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Write the series as mailable patches with a cover letter.
#
# usage: format.sh <output-dir>     (LINUX: the base repository)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$1

rm -rf "$out"
# The cover letter is from whoever signed the patches.
name=$(git -C "$LINUX" log -1 --format=%an series)
email=$(git -C "$LINUX" log -1 --format=%ae series)
git -C "$LINUX" -c user.name="$name" -c user.email="$email" \
	format-patch -q --cover-letter --base=base -o "$out" base..series
cover=$(ls "$out"/0000-cover-letter.patch)
subject=$(head -n 1 "$here/cover-letter.txt")
python3 - "$cover" "$here/cover-letter.txt" <<'PY'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read()
subject, blurb = text.split("\n", 1)
letter = open(cover).read()
letter = letter.replace("*** SUBJECT HERE ***", subject)
letter = letter.replace("*** BLURB HERE ***", blurb.strip("\n"))
open(cover, "w").write(letter)
PY
echo "series: $(ls "$out" | wc -l) files in $out ($subject)"
