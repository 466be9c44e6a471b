#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kunit.py of the tree at $LINUX, with the kernel's own console lines
left out of the KTAP it parses.

usage: kunit_console.py <kunit.py arguments>

The console carries the kernel's messages beside KUnit's.  One that
lands between the lines of a suite's KTAP header ("KTAP version 1",
"# Subtest:", the plan), as the TSC calibration does when a guest boots
slowly, makes kunit.py miss the suite's subtests and report the whole
run as crashed although every case passed.  A KTAP line that starts at
the left margin is a version line, a plan, a result or a "#" line; a
suite's lines are indented.  So, once KTAP has started, a line that
starts at the margin and is none of those is the kernel's: it is left
out of the parse.  test.log, which kunit.py writes from the console
before any parsing, keeps every line.
"""
import os
import re
import sys

KUNIT = os.path.join(os.environ["LINUX"], "tools", "testing", "kunit")
sys.path.insert(0, KUNIT)

import kunit  # noqa: E402
import kunit_parser  # noqa: E402

START = re.compile(r"K?TAP version \d+")
KTAP_AT_MARGIN = re.compile(
    r"K?TAP version \d+|\d+\.\.\d+|(not )?ok \d+|#|\s|$")


def ktap_only(kernel_output):
    """The console lines, but the kernel's among KTAP's once it started."""
    prefix = None
    for line in kernel_output:
        if prefix is None:
            start = START.search(line)
            if start:
                prefix = start.start()
            yield line
        elif KTAP_AT_MARGIN.match(line[prefix:]):
            yield line


extract_tap_lines = kunit_parser.extract_tap_lines
kunit_parser.extract_tap_lines = lambda out: extract_tap_lines(ktap_only(out))

if __name__ == "__main__":
    kunit.main(sys.argv[1:])
