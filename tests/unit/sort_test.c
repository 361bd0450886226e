/*
 * sort_test: sort_stable() and sort_stable_inplace() against qsort over
 * random arrays of many lengths, key ranges and element sizes (the
 * comparator made total with the input position, so qsort's answer is
 * the one stable answer); stability itself with duplicate keys; the
 * context reaching the comparator; and two threads sorting at once with
 * different contexts, each getting its own order.
 */
#include "config.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/sort.h"

#include "tsupport.h"

/* An element: a key, its input position and padding to a chosen size. */
struct el {
	int32_t		key;
	uint32_t	pos;
	char		pad[56];
};

struct keyctx {
	int		 desc;		/* descending keys */
	int		 mod;		/* compare key % mod (0: key) */
	unsigned	 calls;
};

static int
el_key(const struct keyctx *c, const struct el *e)
{
	return c->mod != 0 ? e->key % c->mod : e->key;
}

/* By key only: ties are left to the sort (stability decides). */
static int
cmp_ctx(const void *a, const void *b, void *ctx)
{
	struct keyctx	*c = ctx;
	int		 x = el_key(c, a), y = el_key(c, b);

	c->calls++;
	if (c->desc)
		return (y > x) - (y < x);
	return (x > y) - (x < y);
}

/* The same order made total by the input position, for qsort. */
static struct keyctx	q_ctx;

static int
cmp_total(const void *a, const void *b)
{
	const struct el	*x = a, *y = b;
	int		 c = cmp_ctx(a, b, &q_ctx);

	if (c != 0)
		return c;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static void
fill(struct el *a, size_t n, size_t sz, int range)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		struct el *e = (struct el *)((char *)a + i * sz);
		e->key = range > 0 ? rand() % range : rand();
		e->pos = (uint32_t)i;
		memset(e->pad, (int)(i & 0xff), sz - offsetof(struct el, pad));
	}
}

static void
check_one(size_t n, size_t sz, int range, int desc, int mod, int inplace)
{
	struct el	*a, *b;
	struct keyctx	 c = { desc, mod, 0 };
	size_t		 i;

	a = calloc(n + 1, sz);
	b = calloc(n + 1, sz);
	assert_non_null(a);
	assert_non_null(b);
	fill(a, n, sz, range);
	memcpy(b, a, n * sz);
	if (inplace)
		sort_stable_inplace(a, n, sz, cmp_ctx, &c);
	else
		sort_stable(a, n, sz, cmp_ctx, &c);
	q_ctx = c;
	qsort(b, n, sz, cmp_total);
	if (memcmp(a, b, n * sz) != 0) {
		for (i = 0; i < n; i++)
			if (memcmp((char *)a + i * sz, (char *)b + i * sz,
			    sz) != 0)
				break;
		fail_msg("n %zu size %zu range %d desc %d mod %d inplace %d: "
		    "differs at %zu", n, sz, range, desc, mod, inplace, i);
	}
	assert_true(n < 2 || c.calls > 0);
	free(a);
	free(b);
}

static void
test_random(void **state)
{
	static const size_t	sizes[] = { 8, 12, 24, 64 };
	static const int	ranges[] = { 0, 1, 3, 50 };
	size_t			n, s, r, inplace;

	(void)state;
	srand(1);
	for (n = 0; n < 70; n++)
		for (s = 0; s < 4; s++)
			for (r = 0; r < 4; r++)
				for (inplace = 0; inplace < 2; inplace++)
					check_one(n, sizes[s], ranges[r],
					    (int)(n & 1), (int)(r == 3 ? 7 : 0),
					    (int)inplace);
	for (inplace = 0; inplace < 2; inplace++) {
		check_one(5000, 8, 0, 0, 0, (int)inplace);
		check_one(5000, 64, 10, 1, 0, (int)inplace);
		check_one(20011, 12, 100, 0, 3, (int)inplace);
	}
}

static void
test_stable_sorted_reversed(void **state)
{
	struct el	a[300];
	struct keyctx	c = { 0, 0, 0 };
	size_t		i;

	(void)state;
	/* Already sorted, then reversed runs of equal keys. */
	for (i = 0; i < 300; i++) {
		a[i].key = (int32_t)(299 - i) / 10;
		a[i].pos = (uint32_t)i;
	}
	sort_stable(a, 300, sizeof a[0], cmp_ctx, &c);
	for (i = 1; i < 300; i++) {
		assert_true(a[i - 1].key <= a[i].key);
		if (a[i - 1].key == a[i].key)
			assert_true(a[i - 1].pos < a[i].pos);
	}
	c.calls = 0;
	sort_stable(a, 300, sizeof a[0], cmp_ctx, &c);
	/* Sorted input: one comparison per element after the first. */
	assert_int_equal(c.calls, 299);
}

struct job {
	struct el	*a;
	size_t		 n;
	struct keyctx	 ctx;
	int		 rounds;
	int		 bad;
};

static void *
job_run(void *arg)
{
	struct job	*j = arg;
	size_t		 i;
	int		 r, k, pk;

	for (r = 0; r < j->rounds; r++) {
		for (i = 0; i < j->n; i++) {
			j->a[i].key = (int32_t)((i * 7919 + (size_t)r * 31) %
			    1000);
			j->a[i].pos = (uint32_t)i;
		}
		sort_stable(j->a, j->n, sizeof *j->a, cmp_ctx, &j->ctx);
		for (i = 1; i < j->n; i++) {
			k = el_key(&j->ctx, &j->a[i]);
			pk = el_key(&j->ctx, &j->a[i - 1]);
			if (j->ctx.desc ? pk < k : pk > k)
				j->bad++;
			if (pk == k && j->a[i - 1].pos > j->a[i].pos)
				j->bad++;
		}
	}
	return NULL;
}

static void
test_threads(void **state)
{
	struct job	j[2];
	pthread_t	t[2];
	int		i;

	(void)state;
	for (i = 0; i < 2; i++) {
		memset(&j[i], 0, sizeof j[i]);
		j[i].n = 20000;
		j[i].a = calloc(j[i].n, sizeof *j[i].a);
		assert_non_null(j[i].a);
		j[i].rounds = 20;
		j[i].ctx.desc = i;		/* one ascending, one descending */
		j[i].ctx.mod = i == 0 ? 0 : 17;
	}
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, job_run, &j[i]),
		    0);
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	for (i = 0; i < 2; i++) {
		assert_int_equal(j[i].bad, 0);
		assert_true(j[i].ctx.calls > 0);
		free(j[i].a);
	}
}

/* sort_lex2() and sort_lex3(): the first key that differs decides, and
 * -1, 0 or 1 only, also where a difference overflows an int. */
static void
test_lex(void **state)
{
	(void)state;
	assert_int_equal(sort_lex2(1, 2, 9, 0), -1);
	assert_int_equal(sort_lex2(2, 1, 0, 9), 1);
	assert_int_equal(sort_lex2(5, 5, 3, 4), -1);
	assert_int_equal(sort_lex2(5, 5, 4, 3), 1);
	assert_int_equal(sort_lex2(5, 5, 4, 4), 0);
	assert_int_equal(sort_lex2(INT64_MIN, INT64_MAX, 0, 0), -1);
	assert_int_equal(sort_lex2(0, 0, INT64_MAX, INT64_MIN), 1);
	assert_int_equal(sort_lex2(UINT32_MAX, 0, 0, 0), 1);
	assert_int_equal(sort_lex3(1, 1, 2, 2, 3, 4), -1);
	assert_int_equal(sort_lex3(1, 1, 3, 2, 3, 4), 1);
	assert_int_equal(sort_lex3(0, 1, 3, 2, 5, 4), -1);
	assert_int_equal(sort_lex3(7, 7, 7, 7, 7, 7), 0);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_random),
	cmocka_unit_test(test_stable_sorted_reversed),
	cmocka_unit_test(test_threads),
	cmocka_unit_test(test_lex))
