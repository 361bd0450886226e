/*
 * cmd-mcp: `gpulens mcp`, a Model Context Protocol server on standard
 * input and output, for coding agents.
 *
 * Transport: JSON-RPC 2.0, one message per line (MCP's stdio transport);
 * nothing but responses is ever written to standard output, diagnostics go
 * to standard error. Methods: initialize, ping, tools/list, tools/call;
 * notifications (no id) are read and not answered. A JSON array of
 * requests is answered with an array.
 *
 * Tools: every verb that has a JSON Schema (`gpulens schema VERB`) is one
 * tool of the same name. Its input is { "traces": [PATH...], "args":
 * [ARG...] }: the trace files (several, or a directory, form one job) and
 * further command-line arguments as the verb takes them (options, a
 * second trace for diff, keys for inspect, globs for metrics). Its output
 * schema (outputSchema, protocol 2025-06-18 and later) is the verb's
 * envelope schema, and a call answers with the very envelope that
 * `gpulens VERB TRACE... ARG... --json` prints: as text content and, where
 * the protocol has it, as structuredContent; isError is set when the verb
 * exits non-zero (its error envelope tells why).
 *
 * Prompts: the recipes (`gpulens recipes`), each an ordered list of tool
 * calls with what to read in each answer; their placeholders (TRACE, DIR,
 * BEFORE, AFTER, REPORT, ID) are the prompt's arguments, in lower case.
 *
 * Each call runs the verb in a child process of this same binary (fork and
 * exec of /proc/self/exe, no shell), so the answers are the command line's
 * byte for byte, a verb's failure cannot take the server down, and the
 * cache serves repeated calls.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "headless/cmd.h"
#include "headless/recipes.h"
#include "headless/cols.h"
#include "util/nametab.h"
#include "util/xmalloc.h"

#define MCP_PROTOCOL_LATEST	"2025-06-18"
#define MCP_OUT_MAX		(64u << 20)	/* a verb's answer, bytes */
#define MCP_ERR_MAX		(64u << 10)	/* its standard error */
#define MCP_ARGS_MAX		256		/* arguments of one call */

/* JSON-RPC error codes. */
#define RPC_PARSE_ERROR		-32700
#define RPC_INVALID_REQUEST	-32600
#define RPC_METHOD_NOT_FOUND	-32601
#define RPC_INVALID_PARAMS	-32602

static cmd_main_t	mcp_run;

const struct cmd_entry cmd_mcp_entry = {
	.name = "mcp",
	.usage = "gpulens mcp",
	.help =
	"Serves every verb with a JSON answer as a Model Context Protocol\n"
	"tool over standard input and output (JSON-RPC 2.0, one message per\n"
	"line). A tool takes {\"traces\": [PATH...], \"args\": [ARG...]} and\n"
	"answers with the verb's --json envelope; its output schema is the\n"
	"verb's 'gpulens schema VERB'. Point an agent's MCP configuration at\n"
	"the command 'gpulens mcp'.",
	.input = CMD_IN_NONE,
	.main = mcp_run
};

struct mcp {
	char		*self;		/* this binary */
	char		 protocol[32];	/* negotiated version */
	int		 structured;	/* structuredContent, outputSchema */
	const struct cmd_global *g;
};

/* The protocol versions this server speaks, oldest first. */
static const char *const mcp_versions[] = {
	"2024-11-05", "2025-03-26", MCP_PROTOCOL_LATEST
};

/* ------------------------------------------------------------------ */
/* Running a verb. */

struct mcp_run {
	char	*out;		/* standard output, NUL-terminated */
	size_t	 outlen;
	char	*err;		/* standard error, NUL-terminated */
	int	 status;	/* exit status, or 128 + signal */
	int	 overflow;	/* output past MCP_OUT_MAX */
};

static void
mcp_run_free(struct mcp_run *r)
{
	free(r->out);
	free(r->err);
}

/* Appends what fd has to *buf, up to max bytes (then *over). 0 at EOF. */
static int
mcp_drain(int fd, char **buf, size_t *len, size_t *cap, size_t max, int *over)
{
	char	tmp[65536];
	ssize_t	n;

	n = read(fd, tmp, sizeof tmp);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (n <= 0)
		return 0;
	if (*len + (size_t)n > max) {
		*over = 1;
		n = (ssize_t)(max - *len);
	}
	if (*len + (size_t)n + 1 > *cap) {
		while (*len + (size_t)n + 1 > *cap)
			*cap = *cap == 0 ? 65536 : *cap * 2;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, tmp, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return 1;
}

/* Runs argv (argv[0] the binary) with stdin on /dev/null and its output
 * captured. Returns 0, or -1 with errno if it could not be run. */
static int
mcp_spawn(char *const argv[], struct mcp_run *r)
{
	struct pollfd	 pfd[2];
	size_t		 ocap = 0, ecap = 0, elen = 0;
	int		 po[2], pe[2], st, eo = 1, ee = 1, devnull, ignored = 0;
	pid_t		 pid;

	memset(r, 0, sizeof *r);
	if (pipe(po) == -1)
		return -1;
	if (pipe(pe) == -1) {
		close(po[0]);
		close(po[1]);
		return -1;
	}
	fflush(NULL);
	if ((pid = fork()) == -1) {
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		return -1;
	}
	if (pid == 0) {
		if ((devnull = open("/dev/null", O_RDONLY)) != -1)
			dup2(devnull, STDIN_FILENO);
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	while (eo || ee) {
		pfd[0].fd = eo ? po[0] : -1;
		pfd[0].events = POLLIN;
		pfd[1].fd = ee ? pe[0] : -1;
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (eo && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			eo = mcp_drain(po[0], &r->out, &r->outlen, &ocap,
			    MCP_OUT_MAX, &r->overflow);
		if (ee && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)))
			ee = mcp_drain(pe[0], &r->err, &elen, &ecap,
			    MCP_ERR_MAX, &ignored);
		if (r->overflow) {
			kill(pid, SIGKILL);
			break;
		}
	}
	close(po[0]);
	close(pe[0]);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) :
	    128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	if (r->out == NULL)
		r->out = xstrdup("");
	if (r->err == NULL)
		r->err = xstrdup("");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Tools. */

/* 1 if verb is served as a tool: it reads an input and has a schema
 * (prep and clean, which write and remove files, are not tools). */
static int
mcp_is_tool(const char *verb)
{
	const struct cmd_entry	*e = cmd_find(verb);

	return e != NULL && e->input != CMD_IN_NONE &&
	    cols_find(verb) != NULL;
}

static cJSON *
mcp_input_schema(void)
{
	cJSON	*s, *props, *p, *items;

	s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "type", "object");
	props = cJSON_AddObjectToObject(s, "properties");
	p = cJSON_AddObjectToObject(props, "traces");
	cJSON_AddStringToObject(p, "type", "array");
	items = cJSON_AddObjectToObject(p, "items");
	cJSON_AddStringToObject(items, "type", "string");
	cJSON_AddNumberToObject(p, "minItems", 1);
	cJSON_AddStringToObject(p, "description", "Trace files (Nsight "
	    "Systems SQLite, PyTorch profiler JSON, rocpd/RPD, Nsight "
	    "Compute reports) or a directory; several form one job.");
	p = cJSON_AddObjectToObject(props, "args");
	cJSON_AddStringToObject(p, "type", "array");
	items = cJSON_AddObjectToObject(p, "items");
	cJSON_AddStringToObject(items, "type", "string");
	cJSON_AddStringToObject(p, "description", "Further arguments as on "
	    "the command line after the traces, e.g. [\"--type\", \"kernel\", "
	    "\"--limit\", \"20\"]; --json is implied.");
	p = cJSON_AddArrayToObject(s, "required");
	cJSON_AddItemToArray(p, cJSON_CreateString("traces"));
	cJSON_AddFalseToObject(s, "additionalProperties");
	return s;
}

/* The verb's envelope schema, from `gpulens schema VERB`; NULL if none. */
static cJSON *
mcp_output_schema(const struct mcp *s, const char *verb)
{
	struct mcp_run	 r;
	cJSON		*j = NULL;
	char		*argv[4];

	argv[0] = s->self;
	argv[1] = (char *)"schema";
	argv[2] = (char *)verb;
	argv[3] = NULL;
	if (mcp_spawn(argv, &r) != 0)
		return NULL;
	if (r.status == 0)
		j = cJSON_Parse(r.out);
	mcp_run_free(&r);
	return j;
}

/* A tool's description: the verb's help, its own options (the shared
 * ones are those of every verb) and its usage. */
static char *
mcp_description(const struct cmd_entry *e)
{
	const struct cmd_option	*c;
	char			*d, left[64];

	d = xstrdup(e->help);
	for (c = e->vopts; c != NULL && c->name != NULL; c++) {
		if (c->how != CMD_OPT_OWN)
			continue;
		snprintf(left, sizeof left, "%s%s%s", c->name,
		    c->arg != NULL ? " " : "", c->arg != NULL ? c->arg : "");
		xstrcatf(&d, "%s  %-26s %s", c == e->vopts ? "\n\n" : "\n",
		    left, c->help);
	}
	xstrcatf(&d, "\n\nUsage: %s", e->usage);
	return d;
}

static cJSON *
mcp_tools_list(const struct mcp *s)
{
	const struct cmd_entry	*e;
	cJSON			*res, *tools, *t, *os;
	char			*desc;
	size_t			 i;

	res = cJSON_CreateObject();
	tools = cJSON_AddArrayToObject(res, "tools");
	for (i = 0; cmd_table[i] != NULL; i++) {
		e = cmd_table[i];
		if (!mcp_is_tool(e->name))
			continue;
		t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "name", e->name);
		desc = mcp_description(e);
		cJSON_AddStringToObject(t, "description", desc);
		free(desc);
		cJSON_AddItemToObject(t, "inputSchema", mcp_input_schema());
		if (s->structured &&
		    (os = mcp_output_schema(s, e->name)) != NULL)
			cJSON_AddItemToObject(t, "outputSchema", os);
		cJSON_AddItemToArray(tools, t);
	}
	return res;
}

/* Appends the strings of array a (cJSON array) to argv; -1 if an item is
 * not a string or there are too many. */
static int
mcp_add_strings(const cJSON *a, char **argv, size_t *n)
{
	const cJSON	*it;

	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it) || *n + 4 >= MCP_ARGS_MAX)
			return -1;
		argv[(*n)++] = it->valuestring;
	}
	return 0;
}

/*
 * tools/call: a result object, or NULL with *code and *msg set for a
 * JSON-RPC error (the request itself was wrong).
 */
static cJSON *
mcp_tools_call(const struct mcp *s, const cJSON *params, int *code,
    char **msg)
{
	const cJSON	*name, *args, *traces, *extra;
	struct mcp_run	 r;
	cJSON		*res, *content, *c, *env;
	char		*argv[MCP_ARGS_MAX], *text;
	size_t		 n = 0;

	*code = RPC_INVALID_PARAMS;
	name = cJSON_GetObjectItemCaseSensitive(params, "name");
	if (!cJSON_IsString(name)) {
		*msg = xstrdup("tools/call needs a tool name");
		return NULL;
	}
	if (!mcp_is_tool(name->valuestring)) {
		*msg = xasprintf("unknown tool: %s", name->valuestring);
		return NULL;
	}
	args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
	if (args != NULL && !cJSON_IsObject(args)) {
		*msg = xstrdup("arguments must be an object");
		return NULL;
	}
	traces = cJSON_GetObjectItemCaseSensitive(args, "traces");
	extra = cJSON_GetObjectItemCaseSensitive(args, "args");
	if (!cJSON_IsArray(traces) || cJSON_GetArraySize(traces) == 0) {
		*msg = xstrdup("arguments.traces must be a non-empty array of "
		    "paths");
		return NULL;
	}
	if (extra != NULL && !cJSON_IsArray(extra)) {
		*msg = xstrdup("arguments.args must be an array of strings");
		return NULL;
	}
	argv[n++] = s->self;
	argv[n++] = (char *)"--no-progress";
	argv[n++] = name->valuestring;
	if (mcp_add_strings(traces, argv, &n) != 0 ||
	    (extra != NULL && mcp_add_strings(extra, argv, &n) != 0)) {
		*msg = xasprintf("arguments.traces and arguments.args must be "
		    "strings, at most %d in all", MCP_ARGS_MAX - 8);
		return NULL;
	}
	argv[n++] = (char *)"--json";
	argv[n] = NULL;
	if (mcp_spawn(argv, &r) != 0) {
		*code = 0;
		res = cJSON_CreateObject();
		content = cJSON_AddArrayToObject(res, "content");
		c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "type", "text");
		text = xasprintf("cannot run %s: %s", s->self, strerror(errno));
		cJSON_AddStringToObject(c, "text", text);
		free(text);
		cJSON_AddItemToArray(content, c);
		cJSON_AddTrueToObject(res, "isError");
		return res;
	}
	res = cJSON_CreateObject();
	content = cJSON_AddArrayToObject(res, "content");
	c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "type", "text");
	env = r.overflow ? NULL : cJSON_Parse(r.out);
	if (env != NULL) {
		/* One line, exactly as the command line prints it. */
		while (r.outlen > 0 && r.out[r.outlen - 1] == '\n')
			r.out[--r.outlen] = '\0';
		cJSON_AddStringToObject(c, "text", r.out);
	} else if (r.overflow)
		cJSON_AddStringToObject(c, "text", "the answer is larger than "
		    "64 MiB: narrow it with --limit, --fields or a window");
	else {
		text = xasprintf("gpulens %s exited %d without a JSON answer: "
		    "%s", name->valuestring, r.status, r.err);
		cJSON_AddStringToObject(c, "text", text);
		free(text);
	}
	cJSON_AddItemToArray(content, c);
	/* The envelope goes in as its own text: a round trip through
	 * cJSON's doubles would round nanosecond times past 2^53. */
	if (env != NULL && s->structured)
		cJSON_AddRawToObject(res, "structuredContent", r.out);
	cJSON_Delete(env);
	cJSON_AddBoolToObject(res, "isError", r.status != 0 || env == NULL);
	mcp_run_free(&r);
	*code = 0;
	return res;
}

/* ------------------------------------------------------------------ */
/* Prompts: the recipes. */

static const char *
mcp_ph_help(const char *ph)
{
	if (strcmp(ph, "TRACE") == 0)
		return "the trace to read";
	if (strcmp(ph, "DIR") == 0)
		return "a directory (or list) of the job's rank traces";
	if (strcmp(ph, "BEFORE") == 0)
		return "the baseline capture";
	if (strcmp(ph, "AFTER") == 0)
		return "the capture to compare with the baseline";
	if (strcmp(ph, "REPORT") == 0)
		return "an Nsight Compute report (.ncu-rep)";
	return "a row id (ev:N) from search";
}

/* "trace" for "TRACE". */
static char *
mcp_ph_arg(const char *ph)
{
	char	*s = xstrdup(ph), *p;

	for (p = s; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return s;
}

static cJSON *
mcp_prompts_list(void)
{
	const struct recipe	*r;
	const char		*ph[RECIPES_MAXPH];
	cJSON			*res, *list, *p, *args, *a;
	char			*name;
	size_t			 i, k, n, nph;

	res = cJSON_CreateObject();
	list = cJSON_AddArrayToObject(res, "prompts");
	n = recipes_list(&r);
	for (i = 0; i < n; i++) {
		p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "name", r[i].name);
		cJSON_AddStringToObject(p, "title", r[i].title);
		cJSON_AddStringToObject(p, "description", r[i].title);
		args = cJSON_AddArrayToObject(p, "arguments");
		nph = recipes_placeholders(r[i].text, ph);
		for (k = 0; k < nph; k++) {
			a = cJSON_CreateObject();
			name = mcp_ph_arg(ph[k]);
			cJSON_AddStringToObject(a, "name", name);
			free(name);
			cJSON_AddStringToObject(a, "description",
			    mcp_ph_help(ph[k]));
			cJSON_AddBoolToObject(a, "required",
			    strcmp(ph[k], "ID") != 0);
			cJSON_AddItemToArray(args, a);
		}
		cJSON_AddItemToArray(list, p);
	}
	return res;
}

static cJSON *
mcp_prompts_get(const cJSON *params, int *code, char **msg)
{
	const struct recipe	*r;
	const cJSON		*name, *args, *v;
	const char		*ph[RECIPES_MAXPH], *val[RECIPES_MAXPH];
	cJSON			*res, *msgs, *m, *c;
	char			*an, *text;
	size_t			 k, nph;

	*code = RPC_INVALID_PARAMS;
	name = cJSON_GetObjectItemCaseSensitive(params, "name");
	if (!cJSON_IsString(name) || (r = recipes_find(name->valuestring)) ==
	    NULL) {
		*msg = xasprintf("unknown prompt: %s", cJSON_IsString(name) ?
		    name->valuestring : "(none)");
		return NULL;
	}
	args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
	nph = recipes_placeholders(r->text, ph);
	for (k = 0; k < nph; k++) {
		an = mcp_ph_arg(ph[k]);
		v = cJSON_GetObjectItemCaseSensitive(args, an);
		free(an);
		val[k] = cJSON_IsString(v) ? v->valuestring : NULL;
	}
	text = recipes_fill(r->text, ph, val, nph);
	res = cJSON_CreateObject();
	cJSON_AddStringToObject(res, "description", r->title);
	msgs = cJSON_AddArrayToObject(res, "messages");
	m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", "user");
	c = cJSON_AddObjectToObject(m, "content");
	cJSON_AddStringToObject(c, "type", "text");
	cJSON_AddStringToObject(c, "text", text);
	cJSON_AddItemToArray(msgs, m);
	free(text);
	*code = 0;
	return res;
}

/* ------------------------------------------------------------------ */
/* JSON-RPC. */

static cJSON *
mcp_initialize(struct mcp *s, const cJSON *params)
{
	const cJSON	*want;
	cJSON		*res, *caps, *info;
	const char	*v = MCP_PROTOCOL_LATEST;
	int		 i;

	want = cJSON_GetObjectItemCaseSensitive(params, "protocolVersion");
	if (cJSON_IsString(want) &&
	    (i = NAMETAB_FIND(mcp_versions, want->valuestring)) >= 0)
		v = mcp_versions[i];
	snprintf(s->protocol, sizeof s->protocol, "%s", v);
	/* structuredContent and outputSchema came with 2025-06-18. */
	s->structured = strcmp(v, "2025-06-18") >= 0;
	res = cJSON_CreateObject();
	cJSON_AddStringToObject(res, "protocolVersion", v);
	caps = cJSON_AddObjectToObject(res, "capabilities");
	cJSON_AddFalseToObject(cJSON_AddObjectToObject(caps, "tools"),
	    "listChanged");
	cJSON_AddFalseToObject(cJSON_AddObjectToObject(caps, "prompts"),
	    "listChanged");
	info = cJSON_AddObjectToObject(res, "serverInfo");
	cJSON_AddStringToObject(info, "name", "gpulens");
	cJSON_AddStringToObject(info, "version", PACKAGE_VERSION);
	cJSON_AddStringToObject(res, "instructions", "Each tool is a gpulens "
	    "verb: pass the trace paths in 'traces' and the verb's options "
	    "in 'args'. Start with 'info' and 'summary', then 'findings'; "
	    "every answer's meta.next suggests the next calls, and the "
	    "prompts are the workflows an expert runs.");
	return res;
}

static cJSON *
mcp_error(const cJSON *id, int code, const char *msg)
{
	cJSON	*r, *e;

	r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "jsonrpc", "2.0");
	if (id != NULL)
		cJSON_AddItemToObject(r, "id", cJSON_Duplicate(id, 1));
	else
		cJSON_AddNullToObject(r, "id");
	e = cJSON_AddObjectToObject(r, "error");
	cJSON_AddNumberToObject(e, "code", code);
	cJSON_AddStringToObject(e, "message", msg);
	return r;
}

/* Handles one request; its response, or NULL for a notification. */
static cJSON *
mcp_handle(struct mcp *s, const cJSON *req)
{
	const cJSON	*id, *method, *params, *ver;
	cJSON		*res = NULL, *r;
	char		*msg = NULL;
	int		 code = 0;

	if (!cJSON_IsObject(req))
		return mcp_error(NULL, RPC_INVALID_REQUEST, "not a JSON-RPC "
		    "request object");
	id = cJSON_GetObjectItemCaseSensitive(req, "id");
	method = cJSON_GetObjectItemCaseSensitive(req, "method");
	params = cJSON_GetObjectItemCaseSensitive(req, "params");
	ver = cJSON_GetObjectItemCaseSensitive(req, "jsonrpc");
	if (id != NULL && !cJSON_IsString(id) && !cJSON_IsNumber(id))
		return mcp_error(NULL, RPC_INVALID_REQUEST, "bad id");
	if (!cJSON_IsString(ver) || strcmp(ver->valuestring, "2.0") != 0 ||
	    !cJSON_IsString(method))
		return id == NULL && cJSON_IsString(method) ? NULL :
		    mcp_error(id, RPC_INVALID_REQUEST, "not a JSON-RPC 2.0 "
		    "request");
	if (id == NULL)
		return NULL;	/* notifications need no answer */
	if (strcmp(method->valuestring, "initialize") == 0)
		res = mcp_initialize(s, params);
	else if (strcmp(method->valuestring, "ping") == 0)
		res = cJSON_CreateObject();
	else if (strcmp(method->valuestring, "tools/list") == 0)
		res = mcp_tools_list(s);
	else if (strcmp(method->valuestring, "prompts/list") == 0)
		res = mcp_prompts_list();
	else if (strcmp(method->valuestring, "prompts/get") == 0) {
		if ((res = mcp_prompts_get(params, &code, &msg)) == NULL) {
			r = mcp_error(id, code, msg);
			free(msg);
			return r;
		}
	}
	else if (strcmp(method->valuestring, "tools/call") == 0) {
		if ((res = mcp_tools_call(s, params, &code, &msg)) == NULL) {
			r = mcp_error(id, code, msg);
			free(msg);
			return r;
		}
	} else {
		msg = xasprintf("unknown method: %s", method->valuestring);
		r = mcp_error(id, RPC_METHOD_NOT_FOUND, msg);
		free(msg);
		return r;
	}
	r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "jsonrpc", "2.0");
	cJSON_AddItemToObject(r, "id", cJSON_Duplicate(id, 1));
	cJSON_AddItemToObject(r, "result", res);
	return r;
}

static void
mcp_send(cJSON *msg)
{
	char	*s;

	if (msg == NULL)
		return;
	s = cJSON_PrintUnformatted(msg);
	fputs(s, stdout);
	fputc('\n', stdout);
	fflush(stdout);
	free(s);
	cJSON_Delete(msg);
}

/* One line from the client. */
static void
mcp_line(struct mcp *s, const char *line)
{
	cJSON	*req, *out, *one;
	int	 i, n;

	if ((req = cJSON_Parse(line)) == NULL) {
		mcp_send(mcp_error(NULL, RPC_PARSE_ERROR, "parse error: not "
		    "JSON"));
		return;
	}
	if (cJSON_IsArray(req)) {
		n = cJSON_GetArraySize(req);
		out = cJSON_CreateArray();
		for (i = 0; i < n; i++)
			if ((one = mcp_handle(s, cJSON_GetArrayItem(req,
			    i))) != NULL)
				cJSON_AddItemToArray(out, one);
		if (n == 0)
			cJSON_AddItemToArray(out, mcp_error(NULL,
			    RPC_INVALID_REQUEST, "empty batch"));
		if (cJSON_GetArraySize(out) > 0)
			mcp_send(out);
		else
			cJSON_Delete(out);
	} else
		mcp_send(mcp_handle(s, req));
	cJSON_Delete(req);
}

static int
mcp_run(int argc, char **argv, const struct cmd_global *g)
{
	struct mcp		 s;
	char			*line = NULL, *p;
	size_t			 cap = 0;
	ssize_t			 n;

	if (argc > 1)
		return cmd_usage_error(&cmd_mcp_entry, "takes no arguments");
	memset(&s, 0, sizeof s);
	s.g = g;
	snprintf(s.protocol, sizeof s.protocol, "%s", MCP_PROTOCOL_LATEST);
	s.structured = 1;
	if ((s.self = realpath("/proc/self/exe", NULL)) == NULL) {
		fprintf(stderr, "gpulens mcp: cannot find this program: %s\n",
		    strerror(errno));
		return EXIT_INTERNAL;
	}
	signal(SIGPIPE, SIG_IGN);
	while ((n = getline(&line, &cap, stdin)) != -1) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\0')
			continue;
		mcp_line(&s, p);
	}
	free(line);
	free(s.self);
	return 0;
}
