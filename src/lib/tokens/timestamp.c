/* timestamp.c - a line's time, for counts per interval (timestamp.h) */
#define _GNU_SOURCE             /* strptime, tm_gmtoff */
#include "config.h"

#include <string.h>
#include <time.h>

#include "blank_field.h"
#include "timestamp.h"

static bool digits(const unsigned char *p, const unsigned char *end, int n,
		   int *v)
{
	int x = 0;

	if (end - p < n)
		return false;
	for (int i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		x = x * 10 + (p[i] - '0');
	}
	*v = x;
	return true;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's
 * days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;

	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static bool valid(int y, int mo, int d, int h, int mi, int s)
{
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30,
				       31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return mo >= 1 && mo <= 12 && d >= 1 &&
	       d <= (mo == 2 && !leap ? 28 : mdays[mo - 1]) && h <= 23 &&
	       mi <= 59 && s <= 59;
}

static int64_t seconds_of(int y, int mo, int d, int h, int mi, int s)
{
	/* A log's lines are mostly of one day: its days are kept. */
	static __thread int last_date = -1;
	static __thread int64_t last_days;
	int date = (y * 16 + mo) * 32 + d;

	if (date != last_date) {
		last_days = days_from_civil(y, mo, d);
		last_date = date;
	}
	return last_days * 86400 + h * 3600 + mi * 60 + s;
}

#define MONTH(a, b, c) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16)

static int month_of(const unsigned char *p, const unsigned char *end)
{
	static const uint32_t names[12] = {
		MONTH('J', 'a', 'n'), MONTH('F', 'e', 'b'), MONTH('M', 'a', 'r'),
		MONTH('A', 'p', 'r'), MONTH('M', 'a', 'y'), MONTH('J', 'u', 'n'),
		MONTH('J', 'u', 'l'), MONTH('A', 'u', 'g'), MONTH('S', 'e', 'p'),
		MONTH('O', 'c', 't'), MONTH('N', 'o', 'v'), MONTH('D', 'e', 'c'),
	};
	uint32_t k;

	if (end - p < 3)
		return 0;
	k = MONTH(p[0], p[1], p[2]);
	for (int i = 0; i < 12; i++)
		if (k == names[i])
			return i + 1;
	return 0;
}

/* +hh:mm, +hhmm or +hh at p, as seconds east of UTC; *n its length. */
static bool offset_at(const unsigned char *p, const unsigned char *end,
		      int64_t *off, int *n)
{
	int hh, mm = 0;

	if (p >= end || (*p != '+' && *p != '-') || !digits(p + 1, end, 2, &hh))
		return false;
	*n = 3;
	if (digits(p + 3, end, 2, &mm))
		*n = 5;
	else if (end - p >= 6 && p[3] == ':' && digits(p + 4, end, 2, &mm))
		*n = 6;
	else
		mm = 0;
	if (hh > 23 || mm > 59)
		return false;
	*off = (hh * 3600 + mm * 60) * (*p == '-' ? -1 : 1);
	return true;
}

/* [27/Nov/2026:10:00:00 +0000] at p (its '['). */
static bool clf_at(const unsigned char *p, const unsigned char *end,
		   int64_t *t)
{
	int d, y, h, mi, s, n, mo;
	int64_t off;

	if (end - p < 28 || p[3] != '/' || p[7] != '/' || p[12] != ':' ||
	    p[15] != ':' || p[18] != ':' || p[21] != ' ' ||
	    !digits(p + 1, end, 2, &d) || !(mo = month_of(p + 4, end)) ||
	    !digits(p + 8, end, 4, &y) || !digits(p + 13, end, 2, &h) ||
	    !digits(p + 16, end, 2, &mi) || !digits(p + 19, end, 2, &s) ||
	    !offset_at(p + 22, end, &off, &n) || n != 5 || p[27] != ']' ||
	    !valid(y, mo, d, h, mi, s))
		return false;
	*t = seconds_of(y, mo, d, h, mi, s) - off;
	return true;
}

/* 2026-11-27T10:00:00[.fff][Z|+hh:mm] at p (its first digit). */
static bool iso_at(const unsigned char *p, const unsigned char *end,
		   int64_t *t)
{
	int y, mo, d, h, mi, s, n;
	int64_t off = 0;

	if (end - p < 19 || p[4] != '-' || p[7] != '-' ||
	    (p[10] != 'T' && p[10] != ' ' && p[10] != 't') || p[13] != ':' ||
	    p[16] != ':' || !digits(p, end, 4, &y) ||
	    !digits(p + 5, end, 2, &mo) || !digits(p + 8, end, 2, &d) ||
	    !digits(p + 11, end, 2, &h) || !digits(p + 14, end, 2, &mi) ||
	    !digits(p + 17, end, 2, &s) || !valid(y, mo, d, h, mi, s))
		return false;
	p += 19;
	if (p < end && (*p == '.' || *p == ',') && p + 1 < end &&
	    p[1] >= '0' && p[1] <= '9')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
			;
	if (p < end && (*p == 'Z' || *p == 'z'))
		off = 0;
	else if (!offset_at(p, end, &off, &n))
		off = 0;                /* no offset: UTC */
	*t = seconds_of(y, mo, d, h, mi, s) - off;
	return true;
}

/* Nov 27 10:00:00 (or Nov  7) at p, in year. */
static bool syslog_at(const unsigned char *p, const unsigned char *end,
		      int year, int64_t *t)
{
	int mo, d, h, mi, s;

	if (end - p < 15 || p[3] != ' ' || p[6] != ' ' || p[9] != ':' ||
	    p[12] != ':' || !(mo = month_of(p, end)) ||
	    !digits(p + 7, end, 2, &h) || !digits(p + 10, end, 2, &mi) ||
	    !digits(p + 13, end, 2, &s))
		return false;
	if (p[4] == ' ') {
		if (!digits(p + 5, end, 1, &d))
			return false;
	} else if (!digits(p + 4, end, 2, &d)) {
		return false;
	}
	if (!valid(year, mo, d, h, mi, s))
		return false;
	*t = seconds_of(year, mo, d, h, mi, s);
	return true;
}

/* Epoch seconds or milliseconds: the whole of [p, end), digits with an
 * optional fraction. */
static bool epoch_of(const unsigned char *p, const unsigned char *end,
		     int64_t *t)
{
	const unsigned char *q = p;
	int64_t v = 0;
	int n = 0;

	for (; q < end && *q >= '0' && *q <= '9'; q++, n++) {
		if (n >= 16)
			return false;
		v = v * 10 + (*q - '0');
	}
	if (!n)
		return false;
	if (q < end && *q == '.')
		for (q++; q < end && *q >= '0' && *q <= '9'; q++)
			;
	if (q != end)
		return false;
	*t = n >= 13 ? v / 1000 : v;
	return true;
}

/* The first timestamp in [p, end): CLF or ISO anywhere, syslog's at the
 * start. */
static bool search(const unsigned char *p, const unsigned char *end,
		   int year, int64_t *t)
{
	if (syslog_at(p, end, year, t))
		return true;
	for (const unsigned char *q = p; q + 19 <= end; q++) {
		if (*q == '[' && clf_at(q, end, t))
			return true;
		if (q[4] == '-' && *q >= '0' && *q <= '9' &&
		    (q == p || q[-1] < '0' || q[-1] > '9') &&
		    iso_at(q, end, t))
			return true;
	}
	return false;
}

/* The time strptime(3) reads with the rule's format from p on (what
 * follows it is left); a year the format does not give is the rule's,
 * and without %z the time is UTC. */
static bool format_at(const struct gh_time_rule *rule, const unsigned char *p,
		      const unsigned char *end, int64_t *t)
{
	char text[256];
	size_t n = (size_t)(end - p) < sizeof(text) - 1
		   ? (size_t)(end - p) : sizeof(text) - 1;
	struct tm tm = { .tm_year = rule->year - 1900, .tm_mday = 1 };

	memcpy(text, p, n);
	text[n] = '\0';
	if (!strptime(text, rule->format, &tm))
		return false;
	int y = tm.tm_year + 1900, mo = tm.tm_mon + 1;

	if (y < 0 || y > 9999 || tm.tm_hour < 0 || tm.tm_min < 0 ||
	    tm.tm_sec < 0 || !valid(y, mo, tm.tm_mday, tm.tm_hour, tm.tm_min,
				    tm.tm_sec))
		return false;
	*t = seconds_of(y, mo, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec) -
	     tm.tm_gmtoff;
	return true;
}

bool gh_time_of_text(const struct gh_time_rule *rule,
		     const unsigned char *from, uint64_t len, int64_t *t)
{
	const unsigned char *to = from + len;

	/* A format reads inside double quotes too, as the forms do. */
	if (rule->format) {
		if (to - from >= 2 && *from == '"' && to[-1] == '"') {
			from++;
			to--;
		}
		return format_at(rule, from, to, t);
	}
	/* One of the forms, or epoch seconds. */
	if (epoch_of(from, to, t))
		return true;
	if (to - from >= 2 && *from == '"' && to[-1] == '"') {
		from++;
		to--;
	}
	if (from < to && *from == '[')
		return clf_at(from, to, t);
	return iso_at(from, to, t) || syslog_at(from, to, rule->year, t);
}

bool gh_time_of_line(const struct gh_time_rule *rule,
		     const unsigned char *p, uint64_t len, int64_t *t)
{
	const unsigned char *end = p + len, *from, *to;

	if (len && end[-1] == '\r')
		end--;
	if (!rule->field)
		return rule->format ? format_at(rule, p, end, t)
				    : search(p, end, rule->year, t);
	if (!gh_line_field(p, end, rule->field, rule->separator, &from, &to))
		return false;
	return gh_time_of_text(rule, from, (uint64_t)(to - from), t);
}

int64_t gh_time_start(const struct gh_time_rule *rule, int64_t t)
{
	int64_t start = t / rule->per * rule->per;

	if (t % rule->per < 0)
		start -= rule->per;     /* floor, before 1970 */
	return start;
}

static void put2(unsigned char *p, int v)
{
	p[0] = (unsigned char)('0' + v / 10);
	p[1] = (unsigned char)('0' + v % 10);
}

bool gh_time_label(int64_t start, unsigned char out[GH_TIME_LABEL])
{
	int64_t days = start / 86400, rem = start % 86400, y;
	int m, d;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	if (y < 0 || y > 9999)
		return false;
	put2(out, (int)(y / 100));
	put2(out + 2, (int)(y % 100));
	out[4] = '-';
	put2(out + 5, m);
	out[7] = '-';
	put2(out + 8, d);
	out[10] = 'T';
	put2(out + 11, (int)(rem / 3600));
	out[13] = ':';
	put2(out + 14, (int)(rem / 60 % 60));
	out[16] = ':';
	put2(out + 17, (int)(rem % 60));
	out[19] = 'Z';
	return true;
}
