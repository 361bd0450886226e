#!/bin/sh
# badinput_cli: runs tests/cli/badinput.py (hostile and broken inputs made from
# the real fixtures: exit 2 with one line, or a valid load; never a crash or
# a hang; escaped names).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
python3 "$GPULENS_SRCDIR/tests/cli/badinput.py"
