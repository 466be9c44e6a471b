#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Write a series as mailable patches with a cover letter.
#
# usage: format.sh <output-dir> [<branch> <cover letter> <subject prefix>]
#
# The branch of $LINUX (the base repository) defaults to series, the
# rewrite for rdma-next, with cover-letter.txt; fixes.sh passes branch
# fixes (or irdma-fixes), its cover letter and the rdma-rc prefix.  A
# cover letter file is a header block, a blank line and the text.  Its
# headers are the
# Subject:, the Revision: (the N of "vN" in every subject, 1 for a
# first posting) and the Change-Id: that b4 tracks the series by across
# revisions; the mails carry both where b4 looks for them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "$1")
branch=${2:-series}
text=${3:-$here/cover-letter.txt}
prefix=${4:-PATCH rdma-next}

# header <name>: the value of one header of the cover letter file
header() {
	sed -n "/^\$/q; s/^$1: *//p" "$text"
}
subject=$(header Subject)
revision=$(header Revision)
change_id=$(header Change-Id)
if [ -z "$subject" ] || [ -z "$revision" ] || [ -z "$change_id" ]; then
	echo "format: $text needs Subject:, Revision: and Change-Id:" >&2
	exit 1
fi

rm -rf "$out"
# The cover letter is from whoever committed and signed the patches (a
# backport keeps its own author).  The patches are threaded under it, as
# git send-email would thread them.
# A first posting says no "v1".
name=$(git -C "$LINUX" log -1 --format=%cn "$branch")
email=$(git -C "$LINUX" log -1 --format=%ce "$branch")
version=()
[ "$revision" = 1 ] || version=(-v "$revision")
git -C "$LINUX" -c user.name="$name" -c user.email="$email" \
	format-patch -q --cover-letter --thread=shallow --base=base \
	"${version[@]}" --subject-prefix="$prefix" -o "$out" "base..$branch"
# The files keep the same names at every revision.
for f in "$out"/v"$revision"-*.patch; do
	[ -e "$f" ] && mv "$f" "$out/${f##*/v"$revision"-}"
done
cover=$out/0000-cover-letter.patch
# What the series was tested with goes where the letter says @TESTED@:
# the summary of the last make check (summary.py), never a figure
# written by hand.
summary=${BUILD:-}/logs/summary.txt
if [ -s "$summary" ]; then
	tested=$(python3 "$here/summary.py" --tested "$summary")
else
	echo "format: no $summary: the cover letter says so" >&2
	tested="Not tested: make check has not run on this tree."
fi
python3 - "$cover" "$text" "$subject" "$change_id" "$tested" <<'PY'
import sys
cover, text, subject, change_id, tested = sys.argv[1:]
blurb = open(text).read().split("\n\n", 1)[1]
blurb = blurb.replace("@TESTED@\n", tested + "\n")
letter = open(cover).read()
letter = letter.replace("*** SUBJECT HERE ***", subject)
letter = letter.replace("*** BLURB HERE ***", blurb.strip("\n"))
head, sep, tail = letter.partition("\nbase-commit: ")
line, nl, rest = tail.partition("\n")
letter = f"{head}{sep}{line}\nchange-id: {change_id}\n{rest}"
open(cover, "w").write(letter)
PY

# To: and Cc: of each mail from get_maintainer.pl (the tree has no git
# history to ask, so MAINTAINERS alone): the maintainers, then reviewers
# and lists.  The cover letter goes to everyone a patch goes to.  A
# backport to a stable tree goes to the stable list, the maintainers and
# the author on Cc:.
python3 - "$LINUX" "$prefix" "$cover" "$out"/[0-9]*.patch <<'PY'
import re
import subprocess
import sys

tree, prefix, cover = sys.argv[1:4]
mails = sys.argv[4:]
patches = [m for m in mails if m != cover]
stable = re.search(r"\b\d+\.\d+\.y$", prefix)


def people(opts, paths):
    cmd = ["scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
           "--no-fixes", "--no-rolestats", "--no-multiline",
           "--separator=, "] + opts + paths
    return subprocess.run(cmd, cwd=tree, capture_output=True, text=True,
                          check=True).stdout.strip()


def add_headers(path, paths):
    """Put To: and Cc: at the end of one mail's headers."""
    head, body = open(path).read().split("\n\n", 1)
    to, cc = people(["--no-r", "--no-l"], paths), people(["--no-m"], paths)
    if stable:
        authors = sorted({a for p in paths for a in re.findall(
            r"^From: (.+)$", open(p).read().split("\n\n", 1)[0], re.M)})
        cc = ", ".join(x for x in [to] + authors + [cc] if x)
        to = "stable@vger.kernel.org"
    for name, value in (("To", to), ("Cc", cc)):
        if value:
            head += f"\n{name}: {value}"
    open(path, "w").write(head + "\n\n" + body)


for patch in patches:
    add_headers(patch, [patch])
add_headers(cover, patches)
PY
# No placeholder address goes out; a placeholder sender is warned of.
"$here/mail_addresses.py" "$out" >/dev/null
files=("$out"/*)
echo "$branch: ${#files[@]} files in $out ($subject)"
