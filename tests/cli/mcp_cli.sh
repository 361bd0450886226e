#!/bin/sh
# mcp_cli: `gpulens mcp` driven by a scripted client (tests/cli/mcp_cli.py):
# the MCP handshake, the tool list with input and output schemas, calls
# whose answers equal the command line's --json envelopes, a failing verb
# and malformed requests; on a generated trace and, when present, on real
# fixtures of three formats.
. "${GPULENS_SRCDIR:-.}/tests/cli/testlib.sh"
export GPULENS
cli_setup python3
T="$TMPD/demo.sqlite"
"$GPULENS" demo --out "$T" --events 5000 --gpus 2 >/dev/null 2>&1 ||
    fail "demo --out"
set -- "$T"
for f in nsys/nsys-ai/mfu_2gpu_before.sqlite \
    kineto/hta/nccl_parser_config__nccl_data.json.gz \
    rocpd/rocmProfileData/matmul_result.rpd; do
	[ -f "$GPULENS_FIXTURES/$f" ] && set -- "$@" "$GPULENS_FIXTURES/$f"
done
python3 "$GPULENS_SRCDIR/tests/cli/mcp_cli.py" "$@" || fail "MCP session"
pass
