#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write branch "series" of the base repository back into this repository.

The reverse of apply.py: a maintainer edits the series as commits (git
rebase -i base, git commit --amend, new, dropped, reordered or split
commits) and this turns them back into the storage apply.py reads, so that
the repository stays the one place the series lives.  Each commit becomes
a patch: its message without the sender's Signed-off-by (the repository
carries no identity), the files it adds (whole, in their last state), one
diff step for what it changes in files of earlier patches, and its edits
of upstream files as the glue steps its patch had when re-running them
still gives the commit's content, else as a "glue fix" diff.  A commit
keeps the names of the patch it matches, by subject and then by position,
so an edit shows in git diff as an edit, not as a rename.

Diffs are written in one fixed format (DIFF_OPTS, no index lines) so that
exporting an unchanged branch rewrites nothing.

usage: export.py <repo> <linux-dir>
"""
import os
import re
import subprocess
import sys
import tempfile

import apply

STORE = ("tools/series/series", "tools/series/patches/",
         "tools/series/steps/", "tools/series/upstream/")
# Independent of the user's git configuration, so the bytes are stable.
DIFF_OPTS = ("--no-color", "--no-ext-diff", "--no-textconv", "--no-renames",
             "--diff-algorithm=myers", "--indent-heuristic", "-U3",
             "--src-prefix=a/", "--dst-prefix=b/")


def die(msg):
    sys.exit(f"export: {msg}")


def git(cwd, *args, data=None):
    """Run git in cwd, returning its output as text; stop on failure."""
    res = subprocess.run(("git", "-C", cwd) + args, input=data,
                         capture_output=True, text=True)
    if res.returncode:
        die(f"git {' '.join(args)}: {res.stderr.strip()}")
    return res.stdout


def refuse_dirty(repo):
    """Export overwrites and deletes files: never the user's uncommitted
    work on them."""
    paths = apply.SPARSE_DIRS + STORE
    dirty = git(repo, "status", "--porcelain", "--", *paths)
    if dirty:
        die("uncommitted changes in the paths export writes; commit or "
            f"stash them first:\n{dirty.rstrip()}")


def series_commits(linux):
    """The commits of branch series, oldest first, as (commit, parent).

    Only a linear branch on tag base is a series apply.py could rebuild;
    an unfinished rebase has not moved the branch yet."""
    rebase = git(linux, "rev-parse", "--git-path", "rebase-merge").strip()
    if os.path.exists(os.path.join(linux, rebase)):
        die(f"a rebase is in progress in {linux}: finish it first")
    base = git(linux, "rev-parse", "base^{commit}").strip()
    git(linux, "rev-parse", "--verify", "series^{commit}")
    if subprocess.run(["git", "-C", linux, "merge-base", "--is-ancestor",
                       base, "series"]).returncode:
        die("branch series is not based on tag base: rebase it onto base")
    pairs = [line.split() for line in git(
        linux, "rev-list", "--reverse", "--parents",
        "base..series").splitlines()]
    parent = base
    for pair in pairs:
        if pair[1:] != [parent]:
            die(f"commit {pair[0][:12]} is a merge or not on the first-parent"
                " line from base: the series must be linear")
        parent = pair[0]
    return [tuple(pair) for pair in pairs]


def objects(linux, ids):
    """The contents of git objects, read by one git cat-file --batch."""
    out = subprocess.run(["git", "-C", linux, "cat-file", "--batch"],
                         input="".join(f"{i}\n" for i in ids).encode(),
                         capture_output=True, check=True).stdout
    contents, pos = [], 0
    for _ in ids:
        end = out.index(b"\n", pos)
        size = int(out[pos:end].split()[2])
        contents.append(out[end + 1:end + 1 + size])
        pos = end + 2 + size
    return contents


def message(raw):
    """A commit's message without its author's and committer's
    Signed-off-by lines, which apply.py adds back for its sender."""
    header, _, msg = raw.decode().partition("\n\n")
    people = {re.sub(r"^\S+ (.*>).*", r"\1", line)
              for line in header.splitlines()
              if line.startswith(("author ", "committer "))}
    lines = [line for line in msg.rstrip().split("\n")
             if line.removeprefix("Signed-off-by: ") not in people]
    return "\n".join(lines).rstrip() + "\n"


def changes(linux, commits):
    """The paths each commit changes, as [(status, path)], read by one
    git diff-tree --stdin: a commit id, then raw entries and their paths."""
    fields = iter(git(linux, "diff-tree", "--stdin", "-r", "-z",
                      "--no-renames", data="".join(f"{c}\n" for c in commits))
                  .split("\0"))
    out, entries = {}, []
    for field in fields:
        if field.startswith(":"):
            entries.append((field.split()[-1], next(fields)))
        elif field:
            entries = out.setdefault(field.strip(), [])
    return [out.get(c, []) for c in commits]


def diff_env(linux, tmp):
    """An environment for git diff that reads attributes only from base's
    .gitattributes: an empty work tree and index, and that file as the
    global attributes file."""
    attributes = os.path.join(tmp, "attributes")
    with open(attributes, "w") as f:
        f.write(git(linux, "cat-file", "-p", "base:.gitattributes"))
    os.mkdir(os.path.join(tmp, "empty"))
    return dict(os.environ, GIT_WORK_TREE=os.path.join(tmp, "empty"),
                GIT_INDEX_FILE=os.path.join(tmp, "empty-index"),
                GIT_CONFIG_COUNT="1",
                GIT_CONFIG_KEY_0="core.attributesFile",
                GIT_CONFIG_VALUE_0=attributes)


class Owner:
    """Which files are the series' own: the ones the repository holds and
    the new ones under the sparse directories; each belongs to the first
    commit that touches it."""

    def __init__(self, linux, held, touched):
        self.held = set(held)
        at_base = git(linux, "ls-tree", "-r", "--name-only", "-z", "base",
                      "--", *touched).split("\0")
        self.at_base = set(at_base)
        self.owner = {}

    def ours(self, path):
        return path in self.held or (path not in self.at_base and
                                     path.startswith(apply.SPARSE_DIRS))

    def split(self, index, changed):
        """A commit's paths as (files it adds, files of earlier patches it
        changes, whether it changes upstream files)."""
        added, later, upstream = [], [], False
        for status, path in changed:
            if not self.ours(path):
                upstream = True
            elif status == "D":
                die(f"{path}: the series deletes a file of its own, which "
                    "the repository cannot hold")
            elif path in self.owner:
                later.append(path)
            else:
                self.owner[path] = index
                added.append(path)
        return added, later, upstream


class Replay:
    """Glue steps re-run on a commit's parent in a scratch index, to see
    whether they still make the commit's changes to upstream files."""

    def __init__(self, repo, linux, owner, tmp):
        self.repo, self.linux, self.owner = repo, linux, owner
        self.tree = apply.Tree(linux)
        self.tree.env = dict(self.tree.env,
                             GIT_INDEX_FILE=os.path.join(tmp, "index"))
        self.current = None
        self.diff_env = diff_env(linux, tmp)

    def reset(self, tree):
        """Make the index hold tree: the first time with read-tree, then
        by updating only the paths that differ, as read-tree of a whole
        kernel tree takes a while."""
        if self.current is None:
            self.tree.git("read-tree", tree)
        else:
            raw = self.tree.git("diff-tree", "-r", "-z", "--no-renames",
                                self.current, tree).decode().split("\0")
            info = "".join(f"{meta.split()[1]} {meta.split()[3]}\t{path}\n"
                           for meta, path in zip(raw[::2], raw[1::2]))
            self.tree.git("update-index", "--index-info", data=info.encode())
        self.current = tree

    def trees(self, parent, steps, fixes):
        """The tree before the steps and after each; a step that fails
        (its anchor gone, its diff not applying) leaves the tree as it was
        and is listed in the failed set: it is not one to keep."""
        self.reset(parent)
        out, failed = [self.current], set()
        for i, args in enumerate(steps):
            try:
                if args[0] == "fix":
                    self.tree.git("apply", "--cached",
                                  data=fixes[args[1]].encode())
                else:
                    apply.GLUE[args[0]](self.tree, self.repo, args[1:])
            except (SystemExit, LookupError, ValueError, AttributeError):
                failed.add(i)
            out.append(self.tree.git("write-tree").decode().strip())
        self.current = out[-1]
        return out, failed

    def diff(self, old, new, paths):
        """A diff of ours: fixed options, hunk headers named as the base
        tree's .gitattributes says whatever $LINUX has checked out, no
        index lines."""
        res = subprocess.run(["git", "-C", self.linux, "diff", *DIFF_OPTS,
                              old, new, "--", *paths], env=self.diff_env,
                             capture_output=True, text=True)
        if res.returncode:
            die(f"git diff {old} {new}: {res.stderr.strip()}")
        return re.sub(r"(?m)^index [0-9a-f]+\.\.[0-9a-f]+.*\n", "",
                      res.stdout)

    def wrong(self, parent, steps, fixes, commit):
        """The upstream paths the steps make otherwise than the commit."""
        return self.upstream_diff(self.trees(parent, steps, fixes)[0][-1],
                                  commit)

    def upstream_diff(self, old, new):
        """The upstream paths whose content differs between two trees."""
        names = git(self.linux, "diff-tree", "-r", "--name-only", "-z",
                    "--no-renames", old, new).split("\0")
        return {p for p in names if p and not self.owner.ours(p)}


def glue_steps(replay, parent, commit, old, fixes, fix):
    """A commit's glue steps as [(position, args)]: the old ones as they
    are when they reproduce its upstream changes; else those of them that
    touch no wrongly made file, and one fix diff for the rest, at the
    place of the first old fix diff or at fix = (position, name)."""
    args = [a for _, a in old]
    trees, failed = replay.trees(parent, args, fixes)
    bad = replay.upstream_diff(trees[-1], commit)
    if not bad:
        return old, {}
    kept = [(p, a) for i, (p, a) in enumerate(old)
            if a[0] != "fix" and i not in failed
            and not replay.upstream_diff(trees[i], trees[i + 1]) & bad]
    need = replay.wrong(parent, [a for _, a in kept], {}, commit)
    if not need:
        return kept, {}
    pos, name = next(((p, a[1]) for p, a in old if a[0] == "fix"), fix)
    head = [a for p, a in kept if p < pos]
    before = replay.trees(parent, head, {})[0][-1]
    new = {name: replay.diff(before, commit, sorted(need))}
    steps = sorted(kept + [(pos, ("fix", name))])
    if replay.wrong(parent, [a for _, a in steps], new, commit):
        die(f"{name}: glue steps cannot reproduce commit {commit[:12]}")
    return steps, new


def match_patches(subjects, old_subjects):
    """For each commit, the index of the old patch it continues, or None:
    the first free one of the same subject, else, for a run of commits
    between two matched ones (or an end) that has exactly as many free
    old patches between theirs, those in order (reworded subjects)."""
    match, used = [None] * len(subjects), set()
    for i, subject in enumerate(subjects):
        match[i] = next((j for j, s in enumerate(old_subjects)
                         if s == subject and j not in used), None)
        used.add(match[i])
    i = 0
    while i < len(subjects):
        end = i
        while end < len(subjects) and match[end] is None:
            end += 1
        low = match[i - 1] if i else -1
        high = match[end] if end < len(subjects) else len(old_subjects)
        free = range(low + 1, high)
        if end > i and len(free) == end - i and not used & set(free):
            match[i:end] = free
        i = end + 1
    return match


def unique(name, taken):
    """name, or name with -2, -3... before its extension, not in taken;
    then taken."""
    stem, ext = os.path.splitext(name)
    n = 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}{ext}"
    taken.add(name)
    return name


def slug(subject):
    return re.sub(r"[^a-z0-9]+", "-", subject.lower()).strip("-")[:60] \
        .rstrip("-") or "patch"


class Export:
    """The series as the repository will hold it, built commit by
    commit."""

    def __init__(self, repo, linux, tmp):
        self.repo, self.linux = repo, linux
        self.old = apply.read_series(repo)
        self.pairs = series_commits(linux)
        self.changed = changes(linux, [c for c, _ in self.pairs])
        held = [a[0] for _, steps in self.old for v, a in steps
                if v == "file"]
        touched = sorted({p for ch in self.changed for _, p in ch} |
                         set(held))
        self.owner = Owner(linux, held, touched)
        self.replay = Replay(repo, linux, self.owner, tmp)
        self.taken = {a[-1] for _, steps in self.old for v, a in steps
                      if v != "file"}
        self.patches, self.texts = [], {}

    def old_text(self, path):
        with open(os.path.join(self.repo, path)) as f:
            return f.read()

    def run(self):
        msgs = [message(raw) for raw in
                objects(self.linux, [c for c, _ in self.pairs])]
        old_subjects = [self.old_text(f"tools/series/patches/{name}")
                        .split("\n", 1)[0] for name, _ in self.old]
        match = match_patches([m.split("\n", 1)[0] for m in msgs],
                              old_subjects)
        names = {self.old[j][0] for j in match if j is not None}
        for i, j in enumerate(match):
            name = (self.old[j][0] if j is not None else
                    unique(slug(msgs[i].split("\n", 1)[0]) + ".txt", names))
            old = [(v, tuple(a)) for v, a in self.old[j][1]] \
                if j is not None else []
            self.patches.append((name, msgs[i], self.steps(i, name, old)))

    def steps(self, index, name, old):
        """One commit's steps, keeping the order of its old patch's."""
        commit, parent = self.pairs[index]
        added, later, upstream = self.owner.split(index, self.changed[index])
        stem = os.path.splitext(name)[0]
        files = [k for k, (v, a) in enumerate(old) if v == "file"]
        items = [(k, ("file",) + a) for k, (v, a) in enumerate(old)
                 if v == "file" and a[0] in added]
        last_file = max(files, default=-1)
        items += [(last_file + 0.1, ("file", p)) for p in added
                  if ("file", (p,)) not in old]
        glue = [(k, a) for k, (v, a) in enumerate(old) if v == "glue"]
        if upstream or glue:
            fixes = {a[1]: self.old_text(a[1]) for _, a in glue
                     if a[0] == "fix"}
            fix = (max([k for k, _ in glue] + [last_file]) + 0.2,
                   f"tools/series/upstream/{stem}.diff")
            if fix[1] not in fixes:
                fix = (fix[0], unique(fix[1], self.taken))
            steps, new = glue_steps(self.replay, parent, commit, glue,
                                    fixes, fix)
            self.texts.update(new)
            items += [(k, ("glue",) + a) for k, a in steps]
        if later:
            diffs = [(k, a[0]) for k, (v, a) in enumerate(old) if v == "diff"]
            k, path = diffs[0] if diffs else (
                len(old), unique(f"tools/series/steps/{stem}.diff",
                                 self.taken))
            self.texts[path] = self.replay.diff(parent, commit, later)
            items.append((k, ("diff", path)))
        return [step for _, step in sorted(items)]


class Writer:
    """Puts the exported series into the repository, touching only files
    whose content changes, and removes what no patch refers to any more."""

    def __init__(self, repo, linux):
        self.repo, self.linux = repo, linux

    def put(self, path, data, executable=False):
        full = os.path.join(self.repo, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        try:
            with open(full, "rb") as f:
                same = f.read() == data
        except FileNotFoundError:
            same = False
        if not same:
            with open(full, "wb") as f:
                f.write(data)
        mode = 0o755 if executable else 0o644
        if os.stat(full).st_mode & 0o777 != mode:
            os.chmod(full, mode)

    def remove(self, path):
        """Delete a file and the directories it leaves empty."""
        full = os.path.join(self.repo, path)
        if os.path.exists(full):
            os.remove(full)
        parent = os.path.dirname(full)
        while parent != self.repo and not os.listdir(parent):
            os.rmdir(parent)
            parent = os.path.dirname(parent)

    def owned(self, paths):
        """The series' files in their last state, with their mode."""
        listing = git(self.linux, "ls-tree", "-r", "-z", "series", "--",
                      *paths).split("\0")
        entries = [(e.split()[0], e.split()[2], e.split("\t", 1)[1])
                   for e in listing if e]
        for (mode, _, path), data in zip(
                entries, objects(self.linux, [e[1] for e in entries])):
            self.put(path, data, mode == "100755")

    def series(self, patches):
        """tools/series/series: its comment header, then the patches."""
        path = os.path.join(self.repo, "tools/series/series")
        with open(path) as f:
            header = re.match(r"(?:(?!patch ).*\n)*", f.read()).group(0)
        blocks = [f"patch {name}\n" +
                  "".join(f"\t{' '.join(step)}\n" for step in steps)
                  for name, _, steps in patches]
        self.put("tools/series/series", (header + "\n".join(blocks)).encode())


def refer(patches):
    """Every repository path a series refers to, as apply.read_series or
    Export.patches lists them."""
    out = set()
    for name, *_, steps in patches:
        out.add(f"tools/series/patches/{name}")
        for step in steps:
            if step[0] in ("file", "diff") or step[1] == "fix":
                out.add(step[-1])
    return out


def flatten(old):
    """apply.read_series's patches in Export.patches' step form."""
    return [(name, [(v,) + tuple(a) for v, a in steps]) for name, steps in old]


def main():
    if len(sys.argv) != 3:
        die("usage: export.py <repo> <linux-dir>")
    repo, linux = (os.path.abspath(p) for p in sys.argv[1:3])
    refuse_dirty(repo)
    with tempfile.TemporaryDirectory() as tmp:
        export = Export(repo, linux, tmp)
        export.run()
    writer = Writer(repo, linux)
    writer.owned(sorted(export.owner.owner))
    for name, msg, _ in export.patches:
        writer.put(f"tools/series/patches/{name}", msg.encode())
    for path, text in export.texts.items():
        writer.put(path, text.encode())
    writer.series(export.patches)
    for path in sorted(refer(flatten(export.old)) - refer(export.patches)):
        writer.remove(path)
    print(f"export: {len(export.patches)} patches from branch series "
          f"written to {repo}")


if __name__ == "__main__":
    main()
