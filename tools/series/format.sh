#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Write a series as mailable patches with a cover letter.
#
# usage: format.sh <output-dir> [<branch> <cover letter> <subject prefix>]
#
# The branch of $LINUX (the base repository) defaults to series, the
# rewrite for rdma-next, with cover-letter.txt; fixes.sh passes branch
# fixes, its cover letter and the rdma-rc prefix.  A cover letter file
# is its subject line, a blank line and the text.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "$1")
branch=${2:-series}
text=${3:-$here/cover-letter.txt}
prefix=${4:-PATCH rdma-next}

rm -rf "$out"
# The cover letter is from whoever signed the patches.
name=$(git -C "$LINUX" log -1 --format=%an "$branch")
email=$(git -C "$LINUX" log -1 --format=%ae "$branch")
git -C "$LINUX" -c user.name="$name" -c user.email="$email" \
	format-patch -q --cover-letter --base=base \
	--subject-prefix="$prefix" -o "$out" "base..$branch"
cover=$(ls "$out"/0000-cover-letter.patch)
subject=$(head -n 1 "$text")
python3 - "$cover" "$text" <<'PY'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read()
subject, blurb = text.split("\n", 1)
letter = open(cover).read()
letter = letter.replace("*** SUBJECT HERE ***", subject)
letter = letter.replace("*** BLURB HERE ***", blurb.strip("\n"))
open(cover, "w").write(letter)
PY

# To: and Cc: of each mail from get_maintainer.pl (the tree has no git
# history to ask, so MAINTAINERS alone): the maintainers, then reviewers
# and lists.  The cover letter goes to everyone a patch goes to.
python3 - "$LINUX" "$cover" "$out"/[0-9]*.patch <<'PY'
import subprocess
import sys

tree, cover, mails = sys.argv[1], sys.argv[2], sys.argv[3:]
patches = [m for m in mails if m != cover]


def people(opts, paths):
    cmd = ["scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
           "--no-fixes", "--no-rolestats", "--no-multiline",
           "--separator=, "] + opts + paths
    return subprocess.run(cmd, cwd=tree, capture_output=True, text=True,
                          check=True).stdout.strip()


def add_headers(path, paths):
    """Put To: and Cc: at the end of one mail's headers."""
    head, body = open(path).read().split("\n\n", 1)
    for name, opts in (("To", ["--no-r", "--no-l"]), ("Cc", ["--no-m"])):
        value = people(opts, paths)
        if value:
            head += f"\n{name}: {value}"
    open(path, "w").write(head + "\n\n" + body)


for patch in patches:
    add_headers(patch, [patch])
add_headers(cover, patches)
PY
echo "$branch: $(ls "$out" | wc -l) files in $out ($subject)"
