#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn this repository into commits on top of the pristine base tree.

Every patch listed in tools/series/series becomes one commit on the branch
"series" of the base repository: the repository files it owns are copied in
whole, its glue steps edit upstream files in place, anchored on their
content, and its diff steps change files of earlier patches.  Commits are
built with git plumbing from the tag "base" and then checked out, so files
whose content did not change keep their timestamps and incremental kernel
builds stay incremental.  Running it again rebuilds the same branch: it is
idempotent.

A diff step (tools/series/steps/*.diff, a unified diff of ours) is how one
file grows over several patches while the repository holds it once, in its
last state: the file's own patch writes it with every later diff touching
it reversed, last first, and each diff's patch with the diffs after it
reversed.  A diff that no longer reverses on its file stops apply.

usage: apply.py <repo> <linux-dir>
"""
import functools
import os
import re
import subprocess
import sys
import tempfile

SPARSE_DIRS = ("drivers/", "include/", "Documentation/", "tools/testing/")


def die(msg):
    sys.exit(f"apply: {msg}")


class Tree:
    """A git index on the base repository that patches are staged into."""

    def __init__(self, linux):
        self.linux = linux
        self.env = dict(os.environ,
                        GIT_INDEX_FILE=os.path.join(linux, ".git",
                                                    "series-index"))

    def git(self, *args, data=None):
        res = subprocess.run(("git", "-C", self.linux) + args, env=self.env,
                             input=data, capture_output=True)
        if res.returncode:
            die(f"git {' '.join(args)}: {res.stderr.decode().strip()}")
        return res.stdout

    def read(self, path):
        return self.git("cat-file", "blob", f":{path}").decode()

    def write(self, path, text, mode="100644"):
        blob = self.git("hash-object", "-w", "--stdin",
                        data=text.encode()).decode().strip()
        self.git("update-index", "--add", "--cacheinfo",
                 f"{mode},{blob},{path}")


def glue_doc_index(tree, repo, args):
    """Add a page to the toctree of Documentation/<dir>/index.rst."""
    index, page = args
    text = tree.read(index)
    head, sep, rest = text.partition(".. toctree::\n")
    if not sep:
        die(f"{index}: no toctree")
    options, entries, tail = re.match(
        r"((?:   :[^\n]*\n)*\n)((?:   \S[^\n]*\n)+)(.*)", rest,
        re.S).groups()
    names = sorted(set(entries.split()) | {page})
    entries = "".join(f"   {name}\n" for name in names)
    tree.write(index, head + sep + options + entries + tail)


def maintainers_entries(text):
    """Split a MAINTAINERS text into (title, block) pairs."""
    blocks = re.split(r"\n\s*\n", text.strip("\n"))
    return [(b.split("\n", 1)[0], b + "\n") for b in blocks]


def glue_maintainers_file(tree, repo, args):
    """Add to one of our MAINTAINERS entries, already in the tree, the F:
    line for a pattern that our MAINTAINERS file lists in that entry."""
    pattern, = args
    with open(os.path.join(repo, "MAINTAINERS")) as f:
        titles = [t for t, b in maintainers_entries(f.read())
                  if f"\nF:\t{pattern}\n" in b]
    if len(titles) != 1:
        die(f"MAINTAINERS: no single entry of ours lists F:\t{pattern}")
    text = tree.read("MAINTAINERS")
    start = text.find(f"\n{titles[0]}\n")
    if start < 0:
        die(f"MAINTAINERS: no entry {titles[0]} in the tree")
    start += 1
    end = text.find("\n\n", start) + 1
    lines = text[start:end].splitlines(keepends=True)
    new = f"F:\t{pattern}\n"
    if new in lines:
        return
    files = [i for i, line in enumerate(lines) if line.startswith("F:\t")]
    at = next((i for i in files if lines[i] > new),
              files[-1] + 1 if files else len(lines))
    lines.insert(at, new)
    tree.write("MAINTAINERS", text[:start] + "".join(lines) + text[end:])


def glue_selftests_target(tree, repo, args):
    """Add a directory to the kselftest TARGETS: before the first TARGETS
    line that sorts after it, as the list is roughly alphabetical."""
    target, = args
    path = "tools/testing/selftests/Makefile"
    lines = tree.read(path).splitlines(keepends=True)
    new = f"TARGETS += {target}\n"
    if new in lines:
        return
    targets = [i for i, line in enumerate(lines)
               if line.startswith("TARGETS += ")]
    if not targets:
        die(f"{path}: no TARGETS")
    at = next((i for i in targets if lines[i] > new), targets[-1] + 1)
    lines.insert(at, new)
    tree.write(path, "".join(lines))


def glue_kconfig_source(tree, repo, args):
    """Source a Kconfig of ours before the last endif of an upstream one,
    or after its last entry when it has no endif (a driver's Kconfig)."""
    kconfig, ours = args
    text = tree.read(kconfig)
    line = f'source "{ours}"\n'
    if line in text:
        return
    at = text.rfind("\nendif")
    if at < 0:
        tree.write(kconfig, text.rstrip("\n") + "\n\n" + line)
    else:
        tree.write(kconfig, text[:at + 1] + line + "\n" + text[at + 1:])


def glue_kconfig_select(tree, repo, args):
    """Make an upstream config symbol select another, after its last select
    (or its type line when it has none)."""
    kconfig, symbol, selected = args
    text = tree.read(kconfig)
    start = text.index(f"config {symbol}\n")
    end = text.index("\n\thelp\n", start) + 1
    body = text[start:end].splitlines(keepends=True)
    line = f"\tselect {selected}\n"
    if any(b.rstrip("\n") == line.rstrip("\n") for b in body):
        return
    selects = [i for i, l in enumerate(body) if l.startswith("\tselect ")]
    body.insert((selects[-1] if selects else 1) + 1, line)
    tree.write(kconfig, text[:start] + "".join(body) + text[end:])


def glue_makefile_obj(tree, repo, args):
    """Make kbuild descend into, or build, a target of ours."""
    makefile, symbol, target = args
    text = tree.read(makefile)
    line = f"obj-$({symbol}) += {target}\n"
    if line not in text:
        tree.write(makefile, text + line)


def glue_fix(tree, repo, args):
    """A minimal fix of upstream code, as a diff of ours against the base
    (tools/series/upstream/), applied as it stands."""
    tree.git("apply", "--cached", os.path.join(repo, args[0]))


GLUE = {
    "doc-index": glue_doc_index,
    "fix": glue_fix,
    "kconfig-select": glue_kconfig_select,
    "kconfig-source": glue_kconfig_source,
    "maintainers-file": glue_maintainers_file,
    "makefile-obj": glue_makefile_obj,
    "selftests-target": glue_selftests_target,
}


@functools.cache
def diff_paths(repo, diff):
    """The files a diff step changes (read once per run)."""
    res = subprocess.run(["git", "apply", "--numstat", "-"],
                         input=open(os.path.join(repo, diff), "rb").read(),
                         capture_output=True)
    if res.returncode:
        die(f"{diff}: {res.stderr.decode().strip()}")
    return [line.split("\t")[2] for line in res.stdout.decode().splitlines()]


class Steps:
    """Each file's content at each patch, from its last state in the
    repository and the diff steps of the patches after."""

    def __init__(self, repo, patches):
        self.repo = repo
        self.later = {}
        for index, (_, steps) in enumerate(patches):
            for verb, args in steps:
                if verb == "diff":
                    for path in diff_paths(repo, args[0]):
                        self.later.setdefault(path, []).append(
                            (index, args[0]))

    def content(self, path, index):
        """The file at patch index: later diffs reversed, last first."""
        with open(os.path.join(self.repo, path)) as f:
            text = f.read()
        diffs = [d for i, d in self.later.get(path, []) if i > index]
        if not diffs:
            return text
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, os.path.dirname(path)),
                        exist_ok=True)
            with open(os.path.join(tmp, path), "w") as f:
                f.write(text)
            for diff in reversed(diffs):
                res = subprocess.run(
                    ["git", "apply", "-R", f"--include={path}",
                     os.path.join(self.repo, diff)], cwd=tmp,
                    capture_output=True)
                if res.returncode:
                    die(f"{diff} does not reverse on {path}: "
                        f"{res.stderr.decode().strip()}")
            with open(os.path.join(tmp, path)) as f:
                return f.read()


def read_series(repo):
    """Parse tools/series/series into [(message file, [(verb, args)])]."""
    patches = []
    with open(os.path.join(repo, "tools/series/series")) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "patch":
                patches.append((words[1], []))
            elif words[0] in ("file", "glue", "diff") and patches:
                patches[-1][1].append((words[0], words[1:]))
            else:
                die(f"series: cannot parse '{line.strip()}'")
    return patches


def check_ownership(repo, patches):
    """Every file of the sparse tree belongs to exactly one patch."""
    listed = subprocess.run(["git", "-C", repo, "ls-files", "--cached",
                             "--others", "--exclude-standard"],
                            capture_output=True, text=True).stdout.split()
    sparse = {p for p in listed if p.startswith(SPARSE_DIRS)}
    owned = [a[0] for _, steps in patches for v, a in steps if v == "file"]
    for path in owned:
        if owned.count(path) > 1:
            die(f"{path} is owned by more than one patch")
        if not os.path.isfile(os.path.join(repo, path)):
            die(f"{path} is listed in tools/series/series but missing")
    stray = sorted(sparse - set(owned))
    if stray:
        die(f"not in any patch of tools/series/series: {' '.join(stray)}")
    seen = set()
    for _, steps in patches:
        for verb, args in steps:
            if verb == "file":
                seen.add(args[0])
            elif verb == "diff":
                early = [p for p in diff_paths(repo, args[0])
                         if p not in seen]
                if early:
                    die(f"{args[0]} changes {' '.join(early)} before any "
                        "patch adds it")


def identity(repo):
    """Who signs the patches: $SERIES_AUTHOR_NAME/EMAIL, else the git
    identity configured for the repository; never someone else's, such as
    the author of its HEAD."""
    def git(*args):
        return subprocess.run(["git", "-C", repo] + list(args),
                              capture_output=True, text=True).stdout.strip()
    name = (os.environ.get("SERIES_AUTHOR_NAME")
            or git("config", "user.name"))
    email = (os.environ.get("SERIES_AUTHOR_EMAIL")
             or git("config", "user.email"))
    if not name or not email:
        die("set git user.name and user.email: they sign the patches")
    return name, email


def main():
    repo, linux = (os.path.abspath(p) for p in sys.argv[1:3])
    patches = read_series(repo)
    check_ownership(repo, patches)
    name, email = identity(repo)
    date = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%aD"],
                          capture_output=True, text=True).stdout.strip()
    tree = Tree(linux)
    env = dict(tree.env, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email)
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)

    tree.git("read-tree", "base")
    parent = tree.git("rev-parse", "base^{commit}").decode().strip()
    msgdir = os.path.join(repo, "tools/series/patches")
    states = Steps(repo, patches)
    for index, (msgfile, steps) in enumerate(patches):
        for verb, args in steps:
            if verb in ("file", "diff"):
                paths = (args[:1] if verb == "file"
                         else diff_paths(repo, args[0]))
                for path in paths:
                    # Scripts keep their executable bit, as git would.
                    tree.write(path, states.content(path, index),
                               "100755" if os.access(
                                   os.path.join(repo, path), os.X_OK)
                               else "100644")
            elif args[0] in GLUE:
                GLUE[args[0]](tree, repo, args[1:])
            else:
                die(f"unknown glue step '{args[0]}'")
        with open(os.path.join(msgdir, msgfile)) as f:
            msg = f.read().rstrip() + f"\n\nSigned-off-by: {name} <{email}>\n"
        treeid = tree.git("write-tree").decode().strip()
        tree.env = env
        parent = tree.git("commit-tree", treeid, "-p", parent,
                          data=msg.encode()).decode().strip()
    tree.git("update-ref", "refs/heads/series", parent)
    subprocess.run(["git", "-C", linux, "checkout", "-q", "-f", "series"],
                   check=True)
    subprocess.run([os.path.join(os.path.dirname(__file__), "host-glue.sh"),
                    linux], check=True)
    print(f"apply: {len(patches)} patches on base, branch series at "
          f"{parent[:12]}")


if __name__ == "__main__":
    main()
