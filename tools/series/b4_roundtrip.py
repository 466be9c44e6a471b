#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that b4 reads a written series as it was meant, and that what
"b4 am" makes of it applies to the pristine base as the tested branch.

usage: b4_roundtrip.py <linux> <mail dir> <branch> <cover letter file>

b4 must find one series in the mails, of the Revision: and Change-Id:
of the cover letter file, complete, with its cover letter and with tag
base of <linux> as base-commit.  "b4 am" of that revision must give an
mbox that git am applies onto base, and the result must be the tree of
<branch>.

Debian 12's b4 (0.12) stops with "Header values may not contain linefeed
or carriage return characters" on any header that git format-patch folds
(a long From: or Subject:).  The mbox given to b4 therefore has its
headers unfolded, which changes no header's value (RFC 5322, 2.2.3).

Runs with Debian's python3, whose site packages hold b4's module.
"""
import glob
import mailbox
import os
import re
import subprocess
import sys
import tempfile

import b4


def fail(msg):
    sys.exit(f"b4: {msg}")


def git(linux, *args):
    return subprocess.run(("git", "-C", linux) + args, check=True,
                          capture_output=True, text=True).stdout.strip()


def cover_headers(path):
    """The header block of a cover letter file (format.sh)."""
    head = open(path).read().split("\n\n", 1)[0]
    return dict(line.split(": ", 1) for line in head.splitlines())


def write_mbox(maildir, path):
    """All mails of maildir, in order, with unfolded headers."""
    mails = sorted(glob.glob(os.path.join(maildir, "[0-9]*.patch")))
    if not mails:
        fail(f"no mails in {maildir}")
    with open(path, "w") as out:
        for mail in mails:
            head, body = open(mail).read().split("\n\n", 1)
            out.write(re.sub(r"\n[ \t]+", " ", head) + "\n\n" + body)
    return len(mails) - 1


def check_series(mbox, revision, change_id, base, patches):
    """What b4 reads from the mails."""
    lmbx = b4.LoreMailbox()
    for msg in mailbox.mbox(mbox):
        lmbx.add_message(msg)
    if sorted(lmbx.series) != [revision]:
        fail(f"revisions {sorted(lmbx.series)}, not [{revision}]")
    lser = lmbx.get_series(revision)
    seen = {"change-id": lser.change_id, "base-commit": lser.base_commit,
            "complete": lser.complete, "cover letter": lser.has_cover,
            "patches": lser.expected}
    want = {"change-id": change_id, "base-commit": base, "complete": True,
            "cover letter": True, "patches": patches}
    for key in want:
        if seen[key] != want[key]:
            fail(f"{key} {seen[key]!r}, not {want[key]!r}")


def am_roundtrip(linux, mbox, revision, branch, tmp):
    """b4 am, then git am of its output onto base in a worktree."""
    out = os.path.join(tmp, "am")
    os.mkdir(out)
    subprocess.run(["b4", "--offline-mode", "am", "-v", str(revision),
                    "-m", mbox, "-o", out, "-n", "series"], cwd=linux,
                   check=True, capture_output=True)
    wt = os.path.join(tmp, "linux")
    git(linux, "worktree", "add", "-q", "--detach", wt, "base")
    try:
        git(wt, "-c", "user.name=b4", "-c", "user.email=b4@localhost",
            "am", "-q", os.path.join(out, "series.mbx"))
        if git(wt, "rev-parse", "HEAD^{tree}") != \
                git(linux, "rev-parse", f"{branch}^{{tree}}"):
            fail(f"b4 am's series does not give the tree of {branch}")
    finally:
        git(linux, "worktree", "remove", "-f", wt)


def main():
    linux, maildir, branch, cover = sys.argv[1:5]
    headers = cover_headers(cover)
    revision = int(headers["Revision"])
    change_id = headers["Change-Id"]
    base = git(linux, "rev-parse", "base^{commit}")
    with tempfile.TemporaryDirectory() as tmp:
        mbox = os.path.join(tmp, "series.mbox")
        patches = write_mbox(maildir, mbox)
        check_series(mbox, revision, change_id, base, patches)
        am_roundtrip(linux, mbox, revision, branch, tmp)
    print(f"b4: v{revision} {change_id}, {patches} patches on "
          f"{base[:12]}, b4 am gives {branch}")


if __name__ == "__main__":
    main()
