#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""No placeholder address in what would be mailed.

usage: mail_addresses.py [--sender 'Name <email>'] [<dir or mail>...]

Reads every address in the mails given (headers, trailers and body,
diffs included) and fails, listing them, when one is a placeholder: an
.example, .invalid, .test, .local or .localhost domain, localhost,
example.com, example.org or example.net, or a noreply address, none of
which a maintainer can reply to.  The sender's own identity is exempt
here, but when it is itself a placeholder a warning line says that mail
must not be sent with it.  The sender is --sender, else
SERIES_AUTHOR_NAME and SERIES_AUTHOR_EMAIL, else the git user.name and
user.email of this repository, as apply.py and fixes.sh sign with.
Message-Id:, In-Reply-To: and References: are ids, not addresses, and
are not read.  With no mail given, only the sender is looked at.
"""

import os
import re
import subprocess
import sys

ADDRESS = re.compile(r"[A-Za-z0-9._%+=-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")
PLACEHOLDER = re.compile(
    r"(?:^|[.@])(?:localhost|example|invalid|test|local)$"
    r"|(?:^|[.@])example\.(?:com|org|net)$"
    r"|no-?reply", re.IGNORECASE)
NOREPLY = re.compile(r"no-?reply", re.IGNORECASE)
IDS = ("message-id:", "in-reply-to:", "references:")


def configured_sender():
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")

    def git(key):
        return subprocess.run(["git", "-C", repo, "config", key],
                              capture_output=True, text=True).stdout.strip()
    name = os.environ.get("SERIES_AUTHOR_NAME") or git("user.name")
    email = os.environ.get("SERIES_AUTHOR_EMAIL") or git("user.email")
    return name, email


def placeholder(address):
    local, _, domain = address.rpartition("@")
    return bool(PLACEHOLDER.search(domain) or NOREPLY.search(local))


def mails(paths):
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                full = os.path.join(path, name)
                if os.path.isfile(full) and name.endswith((".patch", ".eml",
                                                           ".mbox", ".txt")):
                    yield full
        else:
            yield path


def addresses(path):
    """(line number, address) of each address in one mail"""
    in_ids = False
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            if line[:1] not in (" ", "\t"):
                in_ids = line.lower().startswith(IDS)
            if in_ids:
                continue
            for m in ADDRESS.finditer(line):
                yield n, m.group(0).rstrip(".")


def main(argv):
    sender = None
    if argv[:1] == ["--sender"]:
        sender, argv = argv[1], argv[2:]
        m = re.fullmatch(r"\s*(.*?)\s*<([^>]*)>\s*", sender)
        name, email = (m.group(1), m.group(2)) if m else ("", sender)
    else:
        name, email = configured_sender()
    if not email:
        print("mail: no sender: set git user.name and user.email (or "
              "SERIES_AUTHOR_NAME and SERIES_AUTHOR_EMAIL)", file=sys.stderr)
        return 1
    if placeholder(email):
        print(f"WARNING mail: the sender {name} <{email}> is a placeholder "
              "identity: do not send mail with it; set git user.name and "
              "user.email (or SERIES_AUTHOR_NAME and SERIES_AUTHOR_EMAIL) "
              "to a real sender's first", file=sys.stderr)
    bad = []
    count = 0
    for path in mails(argv):
        count += 1
        for n, address in addresses(path):
            if address.lower() == email.lower():
                continue
            if placeholder(address):
                bad.append(f"{path}:{n}: {address}")
    for line in bad:
        print(f"mail: placeholder address {line}", file=sys.stderr)
    if argv:
        state = "FAIL" if bad else "ok"
        print(f"mail: {count} mails, {len(bad)} placeholder addresses "
              f"besides the sender's: {state}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
