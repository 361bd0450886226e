#!/bin/sh
# rowkey_cli: every verb's row keys follow the one grammar (gpulens(1) ROW
# KEYS) and are unique; inspect, correlate and ncu-command take the keys as
# printed and the older forms (tests/cli/rowkey_cli.py).
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
cli_setup python3
python3 "$GPULENS_SRCDIR/tests/cli/rowkey_cli.py" || fail "row keys"
pass
