#!/usr/bin/env python3
"""mcp_cli: a scripted MCP client session against `gpulens mcp`.

initialize (2025-06-18), notifications/initialized, ping, tools/list (every
verb with a JSON schema is a tool, with an input schema and the verb's
envelope schema as its output schema), tools/call on each trace given
(summary, stats with args, info; each answer equals `gpulens VERB ... --json`
run directly), a call whose verb fails (isError with the error envelope),
and the bad requests: unknown tool, missing traces, unknown method,
malformed JSON, a batch. Exits 0 when every check holds.
"""
import json
import os
import subprocess
import sys

G = os.environ.get("GPULENS", "./gpulens")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class Client:
    def __init__(self):
        self.p = subprocess.Popen([G, "mcp"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.next_id = 0

    def send_raw(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read(self):
        line = self.p.stdout.readline()
        if not line:
            fail("server closed its output")
        try:
            return json.loads(line)
        except ValueError:
            fail("server wrote a line that is not JSON: %r" % line[:200])

    def call(self, method, params=None):
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send_raw(json.dumps(msg))
        r = self.read()
        if r.get("id") != self.next_id:
            fail("response id %r for request %d" % (r.get("id"),
                                                      self.next_id))
        return r

    def close(self):
        self.p.stdin.close()
        rc = self.p.wait(timeout=60)
        if rc != 0:
            fail("server exited %d at end of input" % rc)


def direct(verb, traces, args):
    r = subprocess.run([G, "--no-progress", verb] + traces + args +
                       ["--json"], stdout=subprocess.PIPE, text=True)
    return r.returncode, json.loads(r.stdout)


def main():
    traces = sys.argv[1:]
    if not traces:
        fail("usage: mcp_cli.py TRACE...")
    c = Client()
    r = c.call("initialize", {"protocolVersion": "2025-06-18",
                              "capabilities": {},
                              "clientInfo": {"name": "t", "version": "0"}})
    res = r.get("result") or fail("initialize: %r" % r)
    if res["protocolVersion"] != "2025-06-18":
        fail("protocol %r" % res["protocolVersion"])
    if "tools" not in res["capabilities"]:
        fail("no tools capability")
    res_caps = res["capabilities"]
    if res["serverInfo"]["name"] != "gpulens":
        fail("serverInfo %r" % res["serverInfo"])
    c.send_raw(json.dumps({"jsonrpc": "2.0",
                           "method": "notifications/initialized"}))
    if c.call("ping").get("result") != {}:
        fail("ping")

    tools = c.call("tools/list")["result"]["tools"]
    names = {t["name"] for t in tools}
    want = set()
    for v in ("info", "summary", "stats", "gaps", "nvtx", "search",
              "findings", "diff", "launches", "metrics"):
        want.add(v)
    if not want <= names:
        fail("tools missing: %s" % sorted(want - names))
    for t in ("demo", "prep", "clean", "mcp", "schema", "recipes"):
        if t in names:
            fail("%s must not be a tool" % t)
    for t in tools:
        if t["inputSchema"].get("required") != ["traces"]:
            fail("%s input schema %r" % (t["name"], t["inputSchema"]))
        os_ = t.get("outputSchema")
        if not os_ or os_.get("type") != "object" or \
                os_.get("title") != t["name"]:
            fail("%s output schema" % t["name"])
        schema = subprocess.run([G, "schema", t["name"]],
                                stdout=subprocess.PIPE, text=True).stdout
        if json.loads(schema) != os_:
            fail("%s output schema differs from gpulens schema" % t["name"])

    calls = [("summary", []), ("stats", ["--type", "kernel", "--limit",
                                         "5"]), ("info", [])]
    for tr in traces:
        for verb, args in calls:
            r = c.call("tools/call", {"name": verb, "arguments": {
                "traces": [tr], "args": args}})
            res = r.get("result") or fail("%s %s: %r" % (verb, tr, r))
            rc, env = direct(verb, [tr], args)
            if res["isError"] != (rc != 0):
                fail("%s %s: isError %r, exit %d" % (verb, tr,
                                                     res["isError"], rc))
            if res["structuredContent"] != env:
                fail("%s %s: structuredContent differs from the "
                     "command line's envelope" % (verb, tr))
            if json.loads(res["content"][0]["text"]) != env:
                fail("%s %s: text content differs" % (verb, tr))

    # The recipes as prompts, placeholders filled from the arguments.
    if "prompts" not in res_caps:
        fail("no prompts capability")
    prompts = c.call("prompts/list")["result"]["prompts"]
    pnames = [p["name"] for p in prompts]
    recipes = subprocess.run([G, "recipes"], stdout=subprocess.PIPE,
                             text=True).stdout.split("\n")
    want_names = [ln.split()[0] for ln in recipes if ln and
                  not ln.startswith("'")]
    if pnames != want_names:
        fail("prompts %r, recipes %r" % (pnames, want_names))
    fl = [p for p in prompts if p["name"] == "first-look"][0]
    if [a["name"] for a in fl["arguments"]] != ["trace"]:
        fail("first-look arguments %r" % fl["arguments"])
    r = c.call("prompts/get", {"name": "first-look",
                               "arguments": {"trace": "/x/y.sqlite"}})
    text = r["result"]["messages"][0]["content"]["text"]
    if "gpulens summary /x/y.sqlite --json" not in text or "TRACE" in text:
        fail("first-look prompt text: %r" % text[:300])
    r = c.call("prompts/get", {"name": "nope"})
    if r.get("error", {}).get("code") != -32602:
        fail("unknown prompt: %r" % r)

    # A verb that fails: isError, the error envelope.
    r = c.call("tools/call", {"name": "summary", "arguments": {
        "traces": ["/nonexistent/trace.sqlite"]}})
    res = r["result"]
    if not res["isError"] or "error" not in res["structuredContent"]:
        fail("failing call: %r" % res)

    # Bad requests.
    r = c.call("tools/call", {"name": "frobnicate", "arguments": {
        "traces": [traces[0]]}})
    if r.get("error", {}).get("code") != -32602:
        fail("unknown tool: %r" % r)
    r = c.call("tools/call", {"name": "summary", "arguments": {}})
    if r.get("error", {}).get("code") != -32602:
        fail("missing traces: %r" % r)
    r = c.call("tools/call", {"name": "summary", "arguments": {
        "traces": [1]}})
    if r.get("error", {}).get("code") != -32602:
        fail("non-string trace: %r" % r)
    r = c.call("resources/list")
    if r.get("error", {}).get("code") != -32601:
        fail("unknown method: %r" % r)
    c.send_raw("{not json")
    r = c.read()
    if r.get("error", {}).get("code") != -32700 or r.get("id") is not None:
        fail("malformed JSON: %r" % r)
    c.send_raw(json.dumps([{"jsonrpc": "2.0", "id": "a", "method": "ping"},
                           {"jsonrpc": "2.0", "method": "x/notify"},
                           {"jsonrpc": "2.0", "id": "b", "method": "nope"}]))
    r = c.read()
    if not isinstance(r, list) or [x["id"] for x in r] != ["a", "b"]:
        fail("batch: %r" % r)
    c.close()

    # An older client: no structuredContent, no outputSchema.
    c = Client()
    c.call("initialize", {"protocolVersion": "2024-11-05",
                          "capabilities": {}})
    tools = c.call("tools/list")["result"]["tools"]
    if any("outputSchema" in t for t in tools):
        fail("outputSchema sent to a 2024-11-05 client")
    r = c.call("tools/call", {"name": "info", "arguments": {
        "traces": [traces[0]]}})
    if "structuredContent" in r["result"]:
        fail("structuredContent sent to a 2024-11-05 client")
    c.close()
    print("ok   mcp session: %d tools, %d traces" % (len(tools),
                                                      len(traces)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
