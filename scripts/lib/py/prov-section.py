# SPDX-License-Identifier: GPL-2.0
# prov-section.py FILE HEADING BODY: FILE with its section "## HEADING"
# (from that line to the next "## " line) replaced by "## HEADING", a blank
# line and BODY's text, or that section appended; every other line of FILE
# kept as it was.  A FILE that is not there starts as "# The committed kits".
# (scripts/kernel/record/kernel-kit --data: each kit its own section of
# analyzer/tests/data/kit/PROVENANCE.md.)
import os
import sys

path, head, body = sys.argv[1], "## " + sys.argv[2], sys.argv[3]
text = open(body).read().rstrip("\n")
lines = open(path).read().split("\n") if os.path.exists(path) else ["# The committed kits", ""]
if lines and lines[-1] == "":
    lines.pop()
sec = [head, ""] + text.split("\n")
if head in lines:
    i = lines.index(head)
    j = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("## ")), len(lines))
    lines[i:j] = sec + ([""] if j < len(lines) else [])
else:
    lines += [""] + sec
with open(path + ".tmp", "w") as f:
    f.write("\n".join(lines) + "\n")
os.replace(path + ".tmp", path)
